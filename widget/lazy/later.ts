/**
 * @module
 * The script-tag bundle's stand-in for `../views/later.tsx`: what the card shows only in a
 * later state (a payment detected, paid, over- or underpaid, ended, refunded) comes with
 * `payment.js` (with its English texts), which the shopper's first pointer or key press already
 * fetches. A checkout that opens in, or reaches, a later state before that chunk ran waits for
 * it (`laterReady`, in `checkout.tsx`'s `accept`): "Loading…" stays until the card can show
 * the state with its words, never a card without them.
 *
 * Invariant: if the chunk cannot load, the wait ends anyway (once per page): the state then
 * shows without its status words rather than never.
 */
import type { ComponentProps } from "preact";
import type { LaterNote as Note, laterStatus as Status } from "../views/later.tsx";
import { views } from "./registry.ts";
import { lazyView, loadChunk } from "./view.ts";

const SCRIPT = "payment.js";
let settled = false;

/** Null once `payment.js` ran (or could not load); else the wait for it. */
export function laterReady(): Promise<void> | null {
  if (settled || views()["later-status"]) return null;
  return loadChunk(SCRIPT).then(() => {
    settled = true;
  });
}

export const laterStatus: typeof Status = (s, i18n) =>
  (views()["later-status"] as unknown as typeof Status | undefined)?.(s, i18n) ?? "";

export const LaterNote = lazyView<ComponentProps<typeof Note>>("later-note", SCRIPT);
