/**
 * @module
 * What a wallet does for an x402 `exact` payment on EVM, for tests, the simulation and the
 * bench: an EIP-3009 authorization for the terms, signed over the token's EIP-712 domain with a
 * local key (viem). One signer for all of them, so a change of the typed data
 * (`worker/lib/x402/typed-data.ts`) reaches every payer at once. Runs in Node and in workerd.
 */
import type { LocalAccount } from "viem/accounts";
import type { Authorization, PaymentRequirements } from "../../worker/lib/x402/protocol.ts";
import { AUTHORIZATION_TYPES } from "../../worker/lib/x402/typed-data.ts";

/** 32 random bytes as `0x` + 64 hex: an authorization's nonce. */
export function randomNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `0x${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** What a signed authorization may differ in from the one a wallet makes for the terms. */
export interface SignOptions {
  /** Fields of the authorization to override (after the defaults below). */
  authorization?: Partial<Authorization>;
  /** Who signs (default: the payer): another key makes a signature that recovers to it. */
  signer?: LocalAccount;
  /** The EIP-712 domain's `name` (default: the terms' `extra.name`). */
  domainName?: string;
}

/**
 * The authorization a wallet makes for `req` (from the payer to `payTo`, exactly `amount`,
 * valid from ten minutes ago for `maxTimeoutSeconds`, a fresh nonce), with any overrides, and
 * its signature over the token's domain.
 *
 * @example
 * const { authorization, signature } = await signAuthorization(payer, required.accepts[0]!);
 * const payload = { x402Version: 2, accepted: req, payload: { signature, authorization } };
 */
export async function signAuthorization(
  payer: LocalAccount,
  req: PaymentRequirements,
  options: SignOptions = {},
): Promise<{ authorization: Authorization; signature: string }> {
  const now = Math.floor(Date.now() / 1000);
  const authorization: Authorization = {
    from: payer.address,
    to: req.payTo,
    value: req.amount,
    validAfter: String(now - 600),
    validBefore: String(now + req.maxTimeoutSeconds),
    nonce: randomNonce(),
    ...options.authorization,
  };
  const signature = await (options.signer ?? payer).signTypedData({
    domain: {
      name: options.domainName ?? String(req.extra.name),
      version: String(req.extra.version),
      chainId: Number(req.network.split(":")[1]),
      verifyingContract: req.asset as `0x${string}`,
    },
    types: AUTHORIZATION_TYPES,
    primaryType: "TransferWithAuthorization",
    message: {
      from: authorization.from as `0x${string}`,
      to: authorization.to as `0x${string}`,
      value: BigInt(authorization.value),
      validAfter: BigInt(authorization.validAfter),
      validBefore: BigInt(authorization.validBefore),
      nonce: authorization.nonce as `0x${string}`,
    },
  });
  return { authorization, signature };
}
