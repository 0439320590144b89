/**
 * @module
 * The currency-lock adapter: the **one place** the worker relies on an operation the public
 * API does not have.
 *
 * The public API cannot lock a crypto currency on an invoice: the payer picks it on the hosted
 * page, and the crypto amount and address appear afterwards. The project's sandbox offers an
 * extension, `POST /x-sandbox/invoice/lock-currency {accountId, id, cryptoCurrencyCode}` →
 * `{data: Invoice}` with `cryptoCurrencyCode`, `cryptoAmountExpected`, `address` and
 * `expiresAt` set, which enables the in-page mode. Against the official hosts the worker must
 * fall back to the hosted page (`paymentPageUrl`); `supportsCurrencyLock` decides that.
 */
import { OFFICIAL_HOSTS } from "./base-url.ts";
import type { UpstreamClient } from "./client.ts";
import { envelope, lockedInvoiceSchema } from "./schemas.ts";
import type { LockedInvoice } from "./types.ts";

/** Path of the sandbox extension. */
export const LOCK_CURRENCY_PATH = "/x-sandbox/invoice/lock-currency";

/** Thrown (before any request) when the upstream is the official service. */
export class CurrencyLockUnsupportedError extends Error {
  override readonly name = "CurrencyLockUnsupportedError";
}

/**
 * True unless `baseUrl` is one of the official service hosts (production or sandbox), which
 * have no currency-lock operation. An unparseable URL is treated as unsupported.
 *
 * @example
 * supportsCurrencyLock("http://127.0.0.1:8788"); // true
 * supportsCurrencyLock("https://api-merchant.cryptonly.net"); // false
 */
export function supportsCurrencyLock(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return false;
  }
  return !OFFICIAL_HOSTS.includes(host);
}

const oneLockedInvoice = envelope(lockedInvoiceSchema);

/**
 * Locks `cryptoCurrencyCode` on an invoice through the sandbox extension and returns the
 * invoice with its payment fields set. One attempt only: the operation is not documented as
 * idempotent, and the widget can simply ask again.
 *
 * @example
 * const invoice = await lockInvoiceCurrency(client, { invoiceId: "inv_1", cryptoCurrencyCode: "USDT_TRC20" });
 * invoice.address; // where to pay
 */
export async function lockInvoiceCurrency(
  client: UpstreamClient,
  input: { invoiceId: string; cryptoCurrencyCode: string },
): Promise<LockedInvoice> {
  if (!supportsCurrencyLock(client.baseUrl)) {
    throw new CurrencyLockUnsupportedError(
      "the payment service offers no currency lock; use the hosted payment page",
    );
  }
  if (!input.invoiceId || !input.cryptoCurrencyCode) {
    throw new TypeError("invoiceId and cryptoCurrencyCode are required");
  }
  return client.send({
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
}
