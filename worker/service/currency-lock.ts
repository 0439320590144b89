/**
 * @module
 * The currency-lock adapter: the **one place** the worker relies on an operation the public
 * API does not have.
 *
 * The public API cannot lock a crypto currency on an invoice: the payer picks it on the hosted
 * page, and the crypto amount and address appear afterwards. The project's sandbox offers an
 * extension, `POST /x-sandbox/invoice/lock-currency {accountId, id, cryptoCurrencyCode}` →
 * `{data: Invoice}` with `cryptoCurrencyCode`, `cryptoAmountExpected`, `address` and
 * `expiresAt` set, which enables the in-page mode. Whether a service offers it is a question
 * for the service, never for its hostname: `probeCurrencyLock` asks, and a lock answered as an
 * unknown route throws `CurrencyLockUnsupportedError` (the caller switches to the hosted page).
 */
import type { UpstreamClient } from "./client.ts";
import { UpstreamError } from "./errors.ts";
import { envelope, lockedInvoiceSchema } from "./schemas.ts";
import type { LockedInvoice } from "./types.ts";

/** Path of the sandbox extension. */
export const LOCK_CURRENCY_PATH = "/x-sandbox/invoice/lock-currency";

/** The service answered the lock as an unknown route: it has no such operation. */
export class CurrencyLockUnsupportedError extends Error {
  override readonly name = "CurrencyLockUnsupportedError";
}

/** The service's own error codes for a path it does not have (its `exceptions.route` area). */
export const UNKNOWN_ROUTE_CODE = /^exceptions\.route\./;

/**
 * True when the **service itself** says the route is unknown: 404/405 with its own error
 * envelope and a code of its `exceptions.route` area (the sandbox without the extension:
 * `exceptions.route.notFound`). A 404 about the invoice (`exceptions.invoice.notFound`), or one
 * that is not the service's answer (a gateway's or proxy's page, a body without the envelope,
 * another area's code) decides nothing: the lock fails like any upstream failure and the mode
 * stays as it is (issue 20, item 3).
 *
 * @example
 * isUnknownRoute(new UpstreamError("http", "…", { status: 404, code: "exceptions.route.notFound" })); // true
 * isUnknownRoute(new UpstreamError("http", "…", { status: 404 })); // false: not the service's envelope
 */
export function isUnknownRoute(error: unknown): boolean {
  if (!(error instanceof UpstreamError) || error.kind !== "http") return false;
  if (error.status !== 404 && error.status !== 405) return false;
  return error.code !== undefined && UNKNOWN_ROUTE_CODE.test(error.code);
}

/** What a probe found: `offered`, `absent`, or `unknown` (no usable answer; ask again later). */
export type LockProbe =
  | { found: "offered" | "absent"; status: number; code: string | null }
  | { found: "unknown"; why: string };

const oneLockedInvoice = envelope(lockedInvoiceSchema);

/**
 * Asks the service whether it offers the lock, without locking anything: the extension's
 * path with a body that names no invoice. A route that exists refuses the body (400/409/422);
 * one that does not is an unknown route (the service's own 404/405, `isUnknownRoute`).
 * Anything else (401, 429, 5xx, a 404 that is not the service's, no answer) decides nothing.
 * One attempt, no retries.
 *
 * @example
 * const probe = await probeCurrencyLock(upstreamFor(config));
 * if (probe.found === "absent") { … hosted page … }
 */
export async function probeCurrencyLock(client: UpstreamClient): Promise<LockProbe> {
  try {
    await client.send({
      method: "POST",
      path: LOCK_CURRENCY_PATH,
      body: { accountId: client.accountId },
      retry: "never",
      schema: oneLockedInvoice,
    });
    // Locking nothing succeeded: the route is there (and lenient).
    return { found: "offered", status: 200, code: null };
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    const answered = { status: error.status ?? 0, code: error.code ?? null };
    if (isUnknownRoute(error)) return { found: "absent", ...answered };
    if (error.kind === "http" && [400, 409, 422].includes(error.status ?? 0))
      return { found: "offered", ...answered };
    const why = `${error.kind}${error.status ? ` ${error.status}` : ""}`;
    return { found: "unknown", why };
  }
}

/**
 * Locks `cryptoCurrencyCode` on an invoice through the sandbox extension and returns the
 * invoice with its payment fields set. One attempt only: the operation is not documented as
 * idempotent, and the widget can simply ask again. Throws `CurrencyLockUnsupportedError` when
 * the service answers as for an unknown route.
 *
 * @example
 * const invoice = await lockInvoiceCurrency(client, { invoiceId: "inv_1", cryptoCurrencyCode: "USDT_TRC20" });
 * invoice.address; // where to pay
 */
export async function lockInvoiceCurrency(
  client: UpstreamClient,
  input: { invoiceId: string; cryptoCurrencyCode: string },
): Promise<LockedInvoice> {
  if (!input.invoiceId || !input.cryptoCurrencyCode) {
    throw new TypeError("invoiceId and cryptoCurrencyCode are required");
  }
  try {
    return await client.send({
      method: "POST",
      path: LOCK_CURRENCY_PATH,
      body: {
        accountId: client.accountId,
        id: input.invoiceId,
        cryptoCurrencyCode: input.cryptoCurrencyCode,
      },
      retry: "never",
      schema: oneLockedInvoice,
    });
  } catch (error) {
    if (isUnknownRoute(error)) {
      throw new CurrencyLockUnsupportedError(
        "the payment service offers no currency lock; use the hosted payment page",
      );
    }
    throw error;
  }
}
