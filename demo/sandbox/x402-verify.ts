/**
 * @module x402-verify
 * The `exact` EVM scheme's checks, as `@x402/evm`'s facilitator makes them and in its order,
 * then what the simulated chain would refuse: scheme, token domain present, network, the
 * tenant's wallet, the EIP-712 signature (really recovered with viem), recipient, validity
 * window, value, token contract, token domain, nonce, balance. Each refusal carries the
 * protocol's `invalidReason` (`@x402/evm`'s names, or the x402 spec's general ones).
 *
 * Split for atomicity: `signatureValid` is the only asynchronous step and reads no state;
 * `refusal` is synchronous, so a settle can check and commit with nothing in between.
 */
import { recoverTypedDataAddress } from "viem";
import { BASE_SEPOLIA, usdcOn } from "../../worker/lib/x402/networks.ts";
import type { VerifyResponse } from "../../worker/lib/x402/protocol.ts";
import { X402_VERSION } from "../../worker/lib/x402/protocol.ts";
import { AUTHORIZATION_TYPES, authorizationTypedData } from "../../worker/lib/x402/typed-data.ts";
import type { SandboxState } from "./state.ts";
import { X402_START_BALANCE } from "./x402-records.ts";
import type { FacilitatorCall } from "./x402-request.ts";
import { sameAddress } from "./x402-wallets.ts";

/** The one network the sandbox's facilitator settles on. */
export const X402_NETWORK = BASE_SEPOLIA;
/** Its USDC (contract, EIP-712 domain `USDC`/`2`): the only EIP-3009 token on the sandbox's chain. */
export const X402_USDC = usdcOn(BASE_SEPOLIA)!;

/**
 * How far `validBefore` may lie beyond now + `maxTimeoutSeconds`: a payer's clock may run
 * ahead of the sandbox's by this much.
 */
export const VALID_BEFORE_SKEW_S = 30n;
/** `validBefore` must leave at least this long to mine the transfer (`@x402/evm`: 6 s). */
const MIN_REMAINING_S = 6n;

/** The reasons the sandbox answers (`@x402/evm`'s, then the x402 spec's general ones). */
export const REASONS = {
  version: "invalid_x402_version",
  scheme: "invalid_exact_evm_scheme",
  domain: "invalid_exact_evm_missing_eip712_domain",
  networkMismatch: "invalid_exact_evm_network_mismatch",
  network: "invalid_network",
  wallet: "invalid_payment_requirements",
  signature: "invalid_exact_evm_signature",
  recipient: "invalid_exact_evm_recipient_mismatch",
  validBefore: "invalid_exact_evm_payload_authorization_valid_before",
  validAfter: "invalid_exact_evm_payload_authorization_valid_after",
  value: "invalid_exact_evm_payload_authorization_value_mismatch",
  asset: "asset_not_deployed_contract",
  tokenName: "invalid_exact_evm_token_name_mismatch",
  tokenVersion: "invalid_exact_evm_token_version_mismatch",
  nonceUsed: "invalid_exact_evm_nonce_already_used",
  balance: "invalid_exact_evm_insufficient_balance",
} as const;

/** A refusal: the protocol's reason and a sentence for people. */
export interface Refusal {
  reason: string;
  message: string;
}

/**
 * `payer|nonce`, lowercase: one authorization's identity on chain (EIP-3009 keeps a used flag
 * per authorizer and nonce).
 * @example
 * nonceKey(call); // "0xabc…|0x5f…"
 */
export function nonceKey(call: FacilitatorCall): string {
  const { from, nonce } = call.authorization;
  return `${from.toLowerCase()}|${nonce.toLowerCase()}`;
}

/**
 * A payer's simulated USDC balance, atomic (`X402_START_BALANCE` for one never seen).
 * @example
 * payerBalance(state, "0xabc…"); // 1000000000n
 */
export function payerBalance(state: SandboxState, payer: string): bigint {
  return state.x402.balances.get(payer.toLowerCase()) ?? X402_START_BALANCE;
}

/**
 * True when the signature recovers, over the requirements' EIP-712 domain, to
 * `authorization.from`. Never throws: a malformed signature or domain is simply not valid.
 * @example
 * await signatureValid(call); // true
 */
export async function signatureValid(call: FacilitatorCall): Promise<boolean> {
  try {
    const data = authorizationTypedData(call.requirements, call.authorization);
    const m = data.message;
    const hex = (address: string) => address as `0x${string}`;
    const signer = await recoverTypedDataAddress({
      domain: { ...data.domain, verifyingContract: hex(data.domain.verifyingContract) },
      types: AUTHORIZATION_TYPES,
      primaryType: data.primaryType,
      // uint256 as bigint, as viem encodes them: exact, whatever their size.
      message: {
        ...{ from: hex(m.from), to: hex(m.to), nonce: hex(m.nonce) },
        ...{ value: BigInt(m.value), validAfter: BigInt(m.validAfter) },
        validBefore: BigInt(m.validBefore),
      },
      signature: call.signature,
    });
    return sameAddress(signer, call.authorization.from);
  } catch {
    return false;
  }
}

function domainOf(call: FacilitatorCall): { name: unknown; version: unknown } {
  const { name, version } = call.requirements.extra;
  return { name, version };
}

/** The checks before the chain is asked: the terms and the signature, in `@x402/evm`'s order. */
function termsRefusal(state: SandboxState, call: FacilitatorCall, signed: boolean) {
  const { accepted, requirements: req, authorization: auth } = call;
  if (call.x402Version !== X402_VERSION || call.payloadVersion !== X402_VERSION) {
    return refuse(REASONS.version, `x402Version must be ${X402_VERSION}`);
  }
  if (accepted.scheme !== "exact" || req.scheme !== "exact") {
    return refuse(REASONS.scheme, "scheme must be exact");
  }
  const { name, version } = domainOf(call);
  if (typeof name !== "string" || typeof version !== "string") {
    return refuse(
      REASONS.domain,
      "paymentRequirements.extra must carry the token's name and version",
    );
  }
  if (accepted.network !== req.network) {
    return refuse(REASONS.networkMismatch, "the payload's network is not the requirements'");
  }
  if (req.network !== X402_NETWORK) {
    return refuse(REASONS.network, `the facilitator settles on ${X402_NETWORK} only`);
  }
  if (!state.options.x402Wallets.some((w) => sameAddress(w, req.payTo))) {
    return refuse(REASONS.wallet, "payTo is not a wallet this tenant registered");
  }
  if (!signed) return refuse(REASONS.signature, "the signature is not authorization.from's");
  if (!sameAddress(auth.to, req.payTo)) {
    return refuse(REASONS.recipient, "authorization.to is not paymentRequirements.payTo");
  }
  return timeRefusal(state, call);
}

function timeRefusal(state: SandboxState, call: FacilitatorCall): Refusal | null {
  const now = BigInt(Math.floor(state.now().getTime() / 1000));
  const before = BigInt(call.authorization.validBefore);
  if (before < now + MIN_REMAINING_S) {
    return refuse(REASONS.validBefore, "the authorization has expired (validBefore)");
  }
  if (before > now + BigInt(call.requirements.maxTimeoutSeconds) + VALID_BEFORE_SKEW_S) {
    return refuse(REASONS.validBefore, "validBefore lies beyond now + maxTimeoutSeconds");
  }
  if (BigInt(call.authorization.validAfter) > now) {
    return refuse(REASONS.validAfter, "the authorization is not valid yet (validAfter)");
  }
  return null;
}

/** What the simulated chain refuses: the token, its domain, the nonce, the balance. */
function chainRefusal(state: SandboxState, call: FacilitatorCall): Refusal | null {
  const { requirements: req, authorization: auth } = call;
  if (BigInt(auth.value) !== BigInt(req.amount)) {
    return refuse(REASONS.value, "authorization.value is not paymentRequirements.amount");
  }
  if (!sameAddress(req.asset, X402_USDC.address)) {
    return refuse(REASONS.asset, `the sandbox's chain has one token: USDC at ${X402_USDC.address}`);
  }
  const { name, version } = domainOf(call);
  if (name !== X402_USDC.eip712.name) {
    return refuse(REASONS.tokenName, `the token's EIP-712 name is ${X402_USDC.eip712.name}`);
  }
  if (version !== X402_USDC.eip712.version) {
    return refuse(
      REASONS.tokenVersion,
      `the token's EIP-712 version is ${X402_USDC.eip712.version}`,
    );
  }
  if (state.x402.byNonce.has(nonceKey(call))) {
    return refuse(REASONS.nonceUsed, "this payer already used this nonce");
  }
  if (payerBalance(state, auth.from) < BigInt(auth.value)) {
    return refuse(REASONS.balance, "the payer's USDC balance is below the amount");
  }
  return null;
}

function refuse(reason: string, message: string): Refusal {
  return { reason, message };
}

/**
 * Why the call would not settle now, or null when it would. Synchronous: nothing else runs
 * between this check and a commit made right after it.
 * @example
 * refusal(state, call, await signatureValid(call)); // { reason: "invalid_exact_evm_signature", … }
 */
export function refusal(state: SandboxState, call: FacilitatorCall, signed: boolean) {
  return termsRefusal(state, call, signed) ?? chainRefusal(state, call);
}

/**
 * The answer of `POST /x402/verify`.
 * @example
 * await verifyPayment(state, call); // { isValid: true, payer: "0x…" }
 */
export async function verifyPayment(
  state: SandboxState,
  call: FacilitatorCall,
): Promise<VerifyResponse> {
  const refused = refusal(state, call, await signatureValid(call));
  const payer = call.authorization.from;
  return refused
    ? { isValid: false, invalidReason: refused.reason, invalidMessage: refused.message, payer }
    : { isValid: true, payer };
}
