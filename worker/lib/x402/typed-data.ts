/**
 * @module
 * The EIP-712 typed data of an EIP-3009 `transferWithAuthorization`: what the payer's wallet
 * signs (`eth_signTypedData_v4`) for an x402 `exact` payment on EVM, and what a facilitator
 * recovers the signer from. One builder for the widget and the sandbox's checks alike.
 */
import { chainIdOf } from "./networks.ts";
import type { Authorization, PaymentRequirements } from "./protocol.ts";

/** The EIP-712 types of `TransferWithAuthorization` (EIP-3009). */
export const AUTHORIZATION_TYPES = {
  TransferWithAuthorization: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" },
    { name: "validBefore", type: "uint256" },
    { name: "nonce", type: "bytes32" },
  ],
} as const;

/** The typed data `eth_signTypedData_v4` takes (JSON-serialisable: numbers as strings). */
export interface AuthorizationTypedData {
  types: typeof AUTHORIZATION_TYPES & {
    EIP712Domain: { name: string; type: string }[];
  };
  domain: { name: string; version: string; chainId: number; verifyingContract: string };
  primaryType: "TransferWithAuthorization";
  message: Authorization;
}

/**
 * The typed data of an authorization for `requirements` (its token's domain from `extra`).
 * Throws when the requirements name no EIP-155 network or no domain.
 *
 * @example
 * const data = authorizationTypedData(requirements, authorization);
 * await provider.request({ method: "eth_signTypedData_v4", params: [from, JSON.stringify(data)] });
 */
export function authorizationTypedData(
  requirements: PaymentRequirements,
  authorization: Authorization,
): AuthorizationTypedData {
  const chainId = chainIdOf(requirements.network);
  const { name, version } = requirements.extra as { name?: unknown; version?: unknown };
  if (chainId === null || typeof name !== "string" || typeof version !== "string") {
    throw new Error("the requirements name no EVM network or no token domain");
  }
  return {
    types: {
      EIP712Domain: [
        { name: "name", type: "string" },
        { name: "version", type: "string" },
        { name: "chainId", type: "uint256" },
        { name: "verifyingContract", type: "address" },
      ],
      ...AUTHORIZATION_TYPES,
    },
    domain: { name, version, chainId, verifyingContract: requirements.asset },
    primaryType: "TransferWithAuthorization",
    message: authorization,
  };
}
