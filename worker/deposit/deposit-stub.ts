/**
 * @module
 * How the worker reaches a top-up object: by its checkout id (kind `deposit`, `d` + 22
 * characters). `depositStubFromUrl` answers 404 for an id of the wrong shape without touching
 * any object.
 */
import { ApiError } from "../lib/api-error.ts";
import { DEPOSIT_ID } from "../lib/ids/checkout-id.ts";
import type { DepositsBinding } from "./deposit-rpc.ts";

/** The top-up of a checkout id. */
export function depositStub(env: DepositsBinding, checkoutId: string) {
  return env.DEPOSITS.get(env.DEPOSITS.idFromName(checkoutId));
}

/** The top-up of an id from a URL; 404 for ids of the wrong shape (no object touched). */
export function depositStubFromUrl(env: DepositsBinding, checkoutId: string) {
  if (!DEPOSIT_ID.test(checkoutId)) throw new ApiError(404, "not_found", "No such top-up.");
  return depositStub(env, checkoutId);
}
