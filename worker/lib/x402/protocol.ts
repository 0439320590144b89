/**
 * @module
 * The x402 protocol's wire shapes (version 2), as the worker, the widget and the sandbox read
 * and write them: what a 402 answer offers (`PaymentRequired`), what a payer sends back
 * (`PaymentPayload`, scheme `exact` on EVM: an EIP-3009 `transferWithAuthorization` signed
 * once), and what a facilitator answers (`VerifyResponse`, `SettleResponse`,
 * `SupportedResponse`). Checked against `@x402/core`'s own types by the tests.
 *
 * Header names (HTTP transport, version 2): the 402 carries `PAYMENT-REQUIRED`, the retry
 * carries `PAYMENT-SIGNATURE`, the paid answer carries `PAYMENT-RESPONSE`; each is base64 of
 * the JSON (`base64-json.ts`).
 */

/** The protocol version this project speaks. */
export const X402_VERSION = 2;

/** The HTTP headers of the x402 transport (version 2). */
export const X402_HEADERS = {
  required: "PAYMENT-REQUIRED",
  signature: "PAYMENT-SIGNATURE",
  response: "PAYMENT-RESPONSE",
} as const;

/** What the resource is (shown to the payer, read by agents). */
export interface ResourceInfo {
  url: string;
  description?: string;
  mimeType?: string;
  serviceName?: string;
}

/** One way to pay: scheme, network (CAIP-2), token, exact atomic amount, recipient. */
export interface PaymentRequirements {
  scheme: string;
  network: string;
  asset: string;
  /** Atomic units of `asset`, a decimal integer string. */
  amount: string;
  payTo: string;
  maxTimeoutSeconds: number;
  /** For `exact` on EVM: the token's EIP-712 domain `{name, version}`. */
  extra: Record<string, unknown>;
}

/** The body (and `PAYMENT-REQUIRED` header) of a 402 answer. */
export interface PaymentRequired {
  x402Version: number;
  error?: string;
  resource: ResourceInfo;
  accepts: PaymentRequirements[];
  extensions?: Record<string, unknown>;
}

/** The EIP-3009 authorization an `exact` EVM payment signs (every number a decimal string). */
export interface Authorization {
  from: string;
  to: string;
  value: string;
  validAfter: string;
  validBefore: string;
  /** 32 random bytes, `0x` + 64 hex digits. */
  nonce: string;
}

/** The `exact` EVM scheme's payload: the signature over the authorization. */
export interface ExactEvmPayload {
  signature: string;
  authorization: Authorization;
}

/** What a payer sends in `PAYMENT-SIGNATURE`. */
export interface PaymentPayload {
  x402Version: number;
  resource?: ResourceInfo;
  accepted: PaymentRequirements;
  payload: Record<string, unknown>;
  extensions?: Record<string, unknown>;
}

/** The facilitator's answer to `POST verify`. */
export interface VerifyResponse {
  isValid: boolean;
  invalidReason?: string;
  invalidMessage?: string;
  payer?: string;
}

/** The facilitator's answer to `POST settle` (and the body of `PAYMENT-RESPONSE`). */
export interface SettleResponse {
  success: boolean;
  errorReason?: string;
  errorMessage?: string;
  payer?: string;
  transaction: string;
  network: string;
}

/** The facilitator's answer to `GET supported`. */
export interface SupportedResponse {
  kinds: {
    x402Version: number;
    scheme: string;
    network: string;
    extra?: Record<string, unknown>;
  }[];
  extensions: string[];
  signers: Record<string, string[]>;
}

/** The body `verify` and `settle` take. */
export interface FacilitatorRequest {
  x402Version: number;
  paymentPayload: PaymentPayload;
  paymentRequirements: PaymentRequirements;
}

/**
 * The refusal reasons of the `exact` EVM scheme, as `@x402/evm` names them (a facilitator's
 * `invalidReason` / `errorReason`). Others may come; these are the ones the widget words.
 */
export const EXACT_EVM_REASONS = {
  signature: "invalid_exact_evm_signature",
  recipient: "invalid_exact_evm_recipient_mismatch",
  value: "invalid_exact_evm_payload_authorization_value_mismatch",
  validBefore: "invalid_exact_evm_payload_authorization_valid_before",
  validAfter: "invalid_exact_evm_payload_authorization_valid_after",
  nonceUsed: "invalid_exact_evm_nonce_already_used",
  balance: "invalid_exact_evm_insufficient_balance",
  network: "invalid_exact_evm_network_mismatch",
  scheme: "invalid_exact_evm_scheme",
  transactionFailed: "invalid_exact_evm_transaction_failed",
} as const;
