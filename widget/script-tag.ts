/**
 * @module
 * Script-tag entry (`<script src="https://<worker>/widget.js" async>`): the API origin
 * defaults to the script's own origin, captured while the script runs (`currentScript` is
 * gone afterwards, and null when the page loads it as `type="module"`: then the first
 * `script[src*="/widget.js"]` tells the origin).
 */
import { defineCheckoutElement } from "./element.ts";
import { setChunkBase } from "./lazy/view.ts";

const src = (
  (document.currentScript as HTMLScriptElement | null) ??
  document.querySelector<HTMLScriptElement>('script[src*="/widget.js"]')
)?.src;
const origin = src ? new URL(src).origin : location.origin;
// The on-demand views are served beside widget.js.
setChunkBase(origin);
defineCheckoutElement(origin);
