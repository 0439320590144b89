/**
 * @module
 * The real integration: everything a merchant's backend writes to take payments with
 * crypto-checkout. The rest of `demo/` is a shop and a test bench around these three steps.
 *
 * 1. Mint a checkout token for an order, server-side. The token carries the price; the browser
 *    only passes it to `<crypto-checkout token="…">` and cannot change it.
 * 2. Receive the worker's signed notifications (`POST /api/notifications`): verify, dedupe, 2xx.
 * 3. Read the order ledger from the worker's merchant API (Bearer token, server-side only).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { mintCheckoutToken } from "../../packages/server/src/index.ts";

/** The order fields a checkout token needs. */
export interface PayableOrder {
  invoiceNumber: string;
  amount: string;
  currency: string;
  description: string;
}

/**
 * Step 1: the token for `<crypto-checkout token="…">`. Same order → same checkout, so minting
 * again on every page view is fine (a changed amount for the same number would be refused).
 *
 * @example
 * const token = await checkoutTokenFor(order, process.env.CHECKOUT_SIGNING_SECRET!, {
 *   returnUrl: "https://shop.example/?order=1001", // widget's "Back to the shop"; page: cancelled/expired
 *   successUrl: "https://shop.example/?order=1001", // payment page: after paid/overpaid
 *   failedUrl: "https://shop.example/checkout/1001", // payment page: after failed/suspended/partially_paid
 * });
 */
export function checkoutTokenFor(
  order: PayableOrder,
  checkoutSigningSecret: string,
  urls: { returnUrl: string; successUrl: string; failedUrl: string },
): Promise<string> {
  return mintCheckoutToken(
    {
      sub: order.invoiceNumber, // becomes the upstream orderId `<prefix>-<sub>`
      amount: order.amount, // a decimal string, e.g. "45.30": never a float
      currency: order.currency,
      description: order.description,
      // Where the service's payment page sends the payer after each outcome (hosted mode).
      ...urls,
    },
    checkoutSigningSecret,
    { expiresInSeconds: 60 * 60 },
  );
}

/**
 * Step 1b: a top-up token (`<crypto-checkout mode="deposit">`): the customer gets a deposit
 * address; the merchant's balance is credited what arrives, less the service's fee. Amount and
 * currency are required claims but a top-up ignores them (the customer decides how much).
 *
 * @example
 * const token = await topUpTokenFor("topup-42", "customer-7", secret);
 */
export function topUpTokenFor(
  topUpId: string,
  customerId: string,
  checkoutSigningSecret: string,
  cryptoCurrencyCode = "USDT_TRC20",
): Promise<string> {
  return mintCheckoutToken(
    { sub: topUpId, amount: "0", currency: "USD", mode: "deposit", customerId, cryptoCurrencyCode },
    checkoutSigningSecret,
    { expiresInSeconds: 60 * 60 },
  );
}

/** A notification the worker POSTs to `MERCHANT_WEBHOOK_URL`. */
export interface MerchantNotification {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
}

/** Signatures older than this are refused (a replayed request). */
const TOLERANCE_SECONDS = 5 * 60;

/**
 * Step 2: checks `x-checkout-signature: t=<unix seconds>,v1=<hex HMAC-SHA256>` over
 * `"<t>.<raw body>"`, keyed with the worker's `MERCHANT_WEBHOOK_SECRET` (its own secret, not the
 * API token: verifying notifications must not let anyone read orders). Verify the raw bytes,
 * before parsing.
 *
 * @example
 * const result = verifyNotification(rawBody, c.req.header("x-checkout-signature"), webhookSecret);
 * if (!result.ok) return c.json({ error: result.reason }, 401);
 */
export function verifyNotification(
  rawBody: string,
  signatureHeader: string | undefined,
  webhookSecret: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): { ok: true; notification: MerchantNotification } | { ok: false; reason: string } {
  const parts = new Map<string, string[]>();
  for (const part of (signatureHeader ?? "").split(",")) {
    const [key, value] = part.trim().split("=", 2);
    if (key && value) parts.set(key, [...(parts.get(key) ?? []), value]);
  }
  const t = parts.get("t")?.[0];
  if (!t || !/^\d+$/.test(t)) return { ok: false, reason: "missing or malformed signature" };
  if (Math.abs(nowSeconds - Number(t)) > TOLERANCE_SECONDS) {
    return { ok: false, reason: "signature timestamp outside the tolerance" };
  }
  const expected = createHmac("sha256", webhookSecret).update(`${t}.${rawBody}`).digest();
  const matches = (parts.get("v1") ?? []).some((hex) => {
    const given = Buffer.from(hex, "hex");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) return { ok: false, reason: "signature mismatch" };
  return { ok: true, notification: JSON.parse(rawBody) as MerchantNotification };
}

/**
 * Step 3: the worker's ledger for one order (`GET /v1/orders/:invoiceNumber`).
 *
 * @example
 * const { status, body } = await fetchLedger(workerUrl, merchantApiToken, "K7Q2XM");
 */
export async function fetchLedger(
  workerUrl: string,
  merchantApiToken: string,
  invoiceNumber: string,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${workerUrl}/v1/orders/${encodeURIComponent(invoiceNumber)}`, {
    headers: { authorization: `Bearer ${merchantApiToken}` },
    signal: AbortSignal.timeout(5000),
  });
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) };
  } catch {
    return { status: response.status, body: { raw: text.slice(0, 500) } };
  }
}
