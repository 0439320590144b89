/**
 * @module
 * What an order offers an x402 payer, and whether a payment payload pays exactly that. Pure:
 * the terms come only from the order (its signed token's amount and currency, what is paid)
 * and the deployment's settings, never from the request.
 *
 * - Offered: x402 on, the order's fiat is the token's (USD for USDC, 1:1), the order unpaid or
 *   partly paid, no refund holding it, and no other x402 payment of it open (settling,
 *   submitted, or with an unknown outcome). The amount is what is due, exact in the token's
 *   units (USD 12.34 → `12340000`).
 * - A payload pays the terms when its `accepted` requirements are the offer's (scheme, network,
 *   token, amount, wallet), its authorization moves exactly that amount to that wallet, is
 *   still valid, and it names this checkout as its resource when it names one. Anything else
 *   is refused before the facilitator is asked: a signature for another order, amount, wallet
 *   or network changes nothing.
 */

import type { X402Offer } from "../../../packages/contract/src/http-api.ts";
import type { X402Settings } from "../../core/config/x402-settings.ts";
import { formatFixed, fromBaseUnits, isPositive, toBaseUnits } from "../../lib/money/decimal.ts";
import type {
  Authorization,
  PaymentPayload,
  PaymentRequired,
  PaymentRequirements,
} from "../../lib/x402/protocol.ts";
import { X402_VERSION } from "../../lib/x402/protocol.ts";
import type { X402PaymentRow } from "./payments-table.ts";

/** The order's facts the terms depend on. */
export interface TermsInput {
  currency: string;
  /** What is due now, fiat, exact. */
  due: string;
  state: "unpaid" | "partially_paid" | "paid" | "refunded";
  refundHeld: boolean;
  /** The order's latest x402 payment, or null. */
  latest: X402PaymentRow | null;
}

/** Why an order offers no x402 payment now. */
export type NotOffered = "off" | "currency" | "paid" | "refunded" | "in_flight";

/** An x402 payment that is open: its outcome is not known yet. */
export const OPEN_STATUSES = new Set(["settling", "submitted", "unknown"]);

/**
 * The requirements the order offers, or why none.
 *
 * @example
 * const terms = x402Terms(settings, { currency: "USD", due: "12.34", state: "unpaid", refundHeld: false, latest: null });
 * terms.ok && terms.requirements.amount; // "12340000"
 */
export function x402Terms(
  settings: X402Settings | null,
  input: TermsInput,
): { ok: true; requirements: PaymentRequirements } | { ok: false; why: NotOffered } {
  if (!settings) return { ok: false, why: "off" };
  const { asset } = settings;
  if (input.currency !== asset.fiat) return { ok: false, why: "currency" };
  if (input.state === "refunded" || input.refundHeld) return { ok: false, why: "refunded" };
  if (input.state === "paid" || !isPositive(input.due)) return { ok: false, why: "paid" };
  if (input.latest && OPEN_STATUSES.has(input.latest.status))
    return { ok: false, why: "in_flight" };
  return {
    ok: true,
    requirements: {
      scheme: "exact",
      network: asset.network,
      asset: asset.address,
      // The fiat's decimal places (2 for USD) fit the token's 6: exact, never rounded.
      amount: toBaseUnits(input.due, asset.decimals).toString(),
      payTo: settings.payTo,
      maxTimeoutSeconds: settings.maxTimeoutSeconds,
      extra: { name: asset.eip712.name, version: asset.eip712.version },
    },
  };
}

/**
 * The snapshot's offer for these requirements.
 *
 * @example
 * offerOf(settings, requirements).amount; // "12.340000"
 */
export function offerOf(settings: X402Settings, requirements: PaymentRequirements): X402Offer {
  const { asset } = settings;
  return {
    network: asset.network,
    chainId: asset.chainId,
    chainName: asset.chainName,
    symbol: asset.symbol,
    decimals: asset.decimals,
    amount: formatFixed(fromBaseUnits(BigInt(requirements.amount), asset.decimals), asset.decimals),
  };
}

/** What the 402 answer says the payer buys (the order, its number, amount and shop). */
export interface Purchase {
  url: string;
  invoiceNumber: string;
  amount: string;
  currency: string;
  shop: string;
}

/**
 * The body (and `PAYMENT-REQUIRED` header) of the 402 answer.
 *
 * @example
 * paymentRequired(requirements, purchase, "PAYMENT-SIGNATURE header is required");
 */
export function paymentRequired(
  requirements: PaymentRequirements,
  purchase: Purchase,
  error: string,
): PaymentRequired {
  return {
    x402Version: X402_VERSION,
    error,
    resource: {
      url: purchase.url,
      description: `Order ${purchase.invoiceNumber} at ${purchase.shop}: ${purchase.amount} ${purchase.currency}`,
      mimeType: "application/json",
      serviceName: purchase.shop,
    },
    accepts: [requirements],
    extensions: {
      // The bazaar extension's shape (`info` + `schema`): what an agent reads to know what it buys.
      bazaar: {
        info: {
          input: { type: "http", method: "POST" },
          output: {
            type: "json",
            example: { data: { invoiceNumber: purchase.invoiceNumber, orderState: "paid" } },
          },
        },
        schema: {
          type: "object",
          properties: {
            invoiceNumber: { type: "string", const: purchase.invoiceNumber },
            amount: { type: "string", const: purchase.amount },
            currency: { type: "string", const: purchase.currency },
          },
        },
      },
    },
  };
}

/** A payload that pays the terms: its authorization and signature. */
export interface CheckedPayment {
  authorization: Authorization;
  signature: string;
  payload: PaymentPayload;
}

/** Why a payload does not pay the terms: the route's code and a message for the payer. */
export interface PayloadRefusal {
  code: "x402_payload_invalid" | "x402_payload_mismatch";
  message: string;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const NONCE = /^0x[0-9a-fA-F]{64}$/;
const SIGNATURE = /^0x[0-9a-fA-F]{130,2000}$/;
const UINT = /^(0|[1-9][0-9]{0,77})$/;
const same = (a: unknown, b: string) =>
  typeof a === "string" && a.toLowerCase() === b.toLowerCase();

/**
 * Checks a decoded `PAYMENT-SIGNATURE` against the order's requirements (`nowSeconds`: the
 * worker's clock).
 *
 * @example
 * const checked = checkPayload(decoded, requirements, resourceUrl, Date.now() / 1000);
 * if ("code" in checked) return failure(checked.code === "x402_payload_invalid" ? 400 : 409, checked.code, checked.message);
 */
export function checkPayload(
  decoded: unknown,
  requirements: PaymentRequirements,
  resourceUrl: string,
  nowSeconds: number,
): CheckedPayment | PayloadRefusal {
  const invalid = (message: string): PayloadRefusal => ({ code: "x402_payload_invalid", message });
  const mismatch = (message: string): PayloadRefusal => ({
    code: "x402_payload_mismatch",
    message,
  });
  if (typeof decoded !== "object" || decoded === null) {
    return invalid("PAYMENT-SIGNATURE must be base64 of the JSON payment payload.");
  }
  const payload = decoded as Partial<PaymentPayload>;
  if (payload.x402Version !== X402_VERSION) return invalid("Only x402 version 2 is accepted.");
  const accepted = payload.accepted as Partial<PaymentRequirements> | undefined;
  const inner = payload.payload as { signature?: unknown; authorization?: unknown } | undefined;
  const auth = inner?.authorization as Partial<Record<keyof Authorization, unknown>> | undefined;
  if (!accepted || typeof accepted !== "object" || !auth || typeof auth !== "object") {
    return invalid("The payload needs `accepted` and `payload.authorization` (scheme exact).");
  }
  const fields = [auth.from, auth.to, auth.value, auth.validAfter, auth.validBefore, auth.nonce];
  if (
    !fields.every((field) => typeof field === "string") ||
    !ADDRESS.test(auth.from as string) ||
    !ADDRESS.test(auth.to as string) ||
    !UINT.test(auth.value as string) ||
    !UINT.test(auth.validAfter as string) ||
    !UINT.test(auth.validBefore as string) ||
    !NONCE.test(auth.nonce as string) ||
    typeof inner?.signature !== "string" ||
    !SIGNATURE.test(inner.signature)
  ) {
    return invalid(
      "The authorization's fields are malformed (addresses, amounts, nonce, signature).",
    );
  }
  const resource = payload.resource as { url?: unknown } | undefined;
  if (resource !== undefined && !same(resource?.url, resourceUrl)) {
    return mismatch("This payment was signed for another order.");
  }
  if (accepted.scheme !== requirements.scheme || accepted.network !== requirements.network) {
    return mismatch(`This checkout is paid with scheme exact on ${requirements.network}.`);
  }
  if (!same(accepted.asset, requirements.asset)) {
    return mismatch("This payment is in another token than the checkout asks for.");
  }
  if (!same(accepted.payTo, requirements.payTo) || !same(auth.to, requirements.payTo)) {
    return mismatch("This payment goes to another wallet than the merchant's.");
  }
  if (accepted.amount !== requirements.amount || auth.value !== requirements.amount) {
    return mismatch("This payment is for another amount than what is due.");
  }
  const validBefore = Number(auth.validBefore);
  if (validBefore <= nowSeconds) {
    return mismatch("The authorization has expired: sign again.");
  }
  if (validBefore > nowSeconds + requirements.maxTimeoutSeconds + 60) {
    return mismatch(
      `The authorization may be valid for ${requirements.maxTimeoutSeconds} s at most.`,
    );
  }
  return {
    authorization: auth as Authorization,
    signature: inner.signature,
    payload: payload as PaymentPayload,
  };
}
