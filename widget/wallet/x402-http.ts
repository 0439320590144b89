/**
 * @module
 * The two x402 requests of a wallet payment to the worker's `POST /v1/checkouts/:id/x402`:
 * without `PAYMENT-SIGNATURE` it answers 402 with the exact terms (`PAYMENT-REQUIRED`, also the
 * body), with it the paid snapshot (200) or a refusal. Every refusal becomes a `Stop` with the
 * shopper's words; a snapshot the refusal carries (the order was paid meanwhile) travels in it.
 */
import type { CheckoutSnapshot } from "../../packages/contract/src/http-api.ts";
import { decodeBase64Json } from "../../worker/lib/x402/base64-json.ts";
import {
  type PaymentRequired,
  EXACT_EVM_REASONS as R,
  X402_HEADERS,
} from "../../worker/lib/x402/protocol.ts";
import type { TextKey } from "../i18n/index.ts";
import { Stop } from "./stop.ts";

/** The facilitator's reasons the shopper can act on; others are "refused ({reason})". */
const REASONS: Record<string, TextKey> = {
  [R.balance]: "walletBalance",
  [R.validBefore]: "walletExpired",
  [R.signature]: "walletBadSignature",
};

/** The worker's x402 codes; any other code the checkout words as it does elsewhere. */
const CODES: Record<string, TextKey> = {
  x402_in_flight: "walletInFlight",
  x402_not_offered: "walletNotOffered",
  x402_payload_invalid: "walletInvalid",
  x402_payload_mismatch: "walletInvalid",
  service_busy: "errorBusy",
  rate_limited: "errorBusy",
  upstream_error: "errorBusy",
  order_paid: "errorOrderPaid",
  network: "errorNetwork",
};

interface Answer {
  data?: CheckoutSnapshot;
  /** The worker's error, or (a plain x402 402) the refusal reason as a string. */
  error?: { code?: string; reason?: string } | string;
}

/**
 * `POST url`, with the signed payment when there is one. Resolves with the paid snapshot or
 * the terms (402 without a signature); throws a `Stop` otherwise.
 *
 * @example
 * const terms = (await postX402(url)) as PaymentRequired;
 * const paid = (await postX402(url, header)) as CheckoutSnapshot;
 */
export async function postX402(
  url: string,
  signature?: string,
): Promise<PaymentRequired | CheckoutSnapshot> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: "POST",
      headers: signature ? { [X402_HEADERS.signature]: signature } : {},
    });
  } catch {
    throw new Stop("errorNetwork", {}, "network");
  }
  const body = (await res.json().catch(() => null)) as
    | (Answer & Omit<PaymentRequired, "error">)
    | null;
  if (res.ok && body?.data) return body.data;
  if (res.status === 402 && !signature) {
    // The header is the protocol's answer; the body says the same where CORS hides the header.
    const header = res.headers.get(X402_HEADERS.required);
    const terms = (header && decodeBase64Json(header)) || body;
    if ((terms as PaymentRequired | null)?.accepts?.[0]) return terms as PaymentRequired;
  }
  const error = body?.error;
  const code =
    typeof error === "object"
      ? (error.code ?? "")
      : res.status === 402
        ? "x402_payment_refused"
        : "internal";
  const reason = (typeof error === "object" ? error.reason : error) ?? code;
  const key = code === "x402_payment_refused" ? (REASONS[reason] ?? "walletRefused") : CODES[code];
  const wait = Number(res.headers.get("retry-after")) || (key === "errorBusy" ? 5 : 0);
  throw new Stop(key ?? null, { reason }, code, wait, body?.data);
}
