/**
 * @module
 * The payer's side of an x402 `exact` payment on EVM, as a browser wallet makes it: the
 * EIP-3009 authorization to sign and the `PAYMENT-SIGNATURE` payload that carries the signature
 * back. The window and nonce are the ones `@x402/evm`'s own client builds (valid from ten
 * minutes before `now`, so a wallet or chain clock a little behind still accepts it, until
 * `now + maxTimeoutSeconds`; 32 random bytes), so a facilitator treats both alike. Pure: the
 * time and the random bytes are the caller's.
 */
import type {
  Authorization,
  ExactEvmPayload,
  PaymentPayload,
  PaymentRequired,
  PaymentRequirements,
} from "./protocol.ts";

/** How far back an authorization is valid from (seconds), as `@x402/evm` does. */
export const VALID_AFTER_SLACK = 600;

/**
 * The authorization `from` signs to pay `requirements` (every number a decimal string).
 *
 * @example
 * const nonce = crypto.getRandomValues(new Uint8Array(32));
 * newAuthorization(requirements, payer, Math.floor(Date.now() / 1000), nonce);
 * // { from: payer, to: requirements.payTo, value: requirements.amount, validAfter: "…", … }
 */
export function newAuthorization(
  requirements: PaymentRequirements,
  from: string,
  nowSeconds: number,
  nonce: Uint8Array,
): Authorization {
  return {
    from,
    to: requirements.payTo,
    value: requirements.amount,
    validAfter: String(nowSeconds - VALID_AFTER_SLACK),
    validBefore: String(nowSeconds + requirements.maxTimeoutSeconds),
    nonce: `0x${[...nonce].map((b) => b.toString(16).padStart(2, "0")).join("")}`,
  };
}

/**
 * The `PAYMENT-SIGNATURE` payload (before base64): what was offered, what was accepted, and the
 * signed authorization.
 *
 * @example
 * encodeBase64Json(signedPayment(required, required.accepts[0], { signature, authorization }));
 */
export function signedPayment(
  required: PaymentRequired,
  accepted: PaymentRequirements,
  payload: ExactEvmPayload,
): PaymentPayload {
  return {
    x402Version: required.x402Version,
    resource: required.resource,
    accepted,
    payload: { signature: payload.signature, authorization: payload.authorization },
  };
}
