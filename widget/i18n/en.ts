/**
 * @module
 * English messages: the catalogue's reference. Other locales must provide every key.
 * `{name}` placeholders are filled by `t()`. What widget.js carries is `en-first.ts`; the
 * texts of the views loaded on demand are in `en-views.ts` (see there).
 */
import { enFirst } from "./en-first.ts";
import { enHosted, enPayment, enRefund, enStatus, enTopUp } from "./en-views.ts";

export const en = {
  ...enFirst,
  ...enStatus,
  ...enPayment,
  ...enHosted,
  ...enRefund,
  ...enTopUp,
} as const;

/** Every message key. */
export type MessageKey = keyof typeof en;
/** A complete catalogue. */
export type Messages = Record<MessageKey, string>;
