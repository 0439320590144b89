/**
 * @module
 * Script-tag entry (`<script src="https://<worker>/widget.js" async>`): the API origin
 * defaults to the script's own origin, captured while the script runs (`currentScript` is
 * gone afterwards).
 */
import { defineCheckoutElement } from "./element.ts";

const src = (document.currentScript as HTMLScriptElement | null)?.src;
defineCheckoutElement(src ? new URL(src).origin : location.origin);
