/**
 * @module sandbox-x402-kit
 * Test helpers for the sandbox's x402 facilitator: requirements as a resource server would
 * offer them, a payment made by the x402 project's own client (`@x402/core`'s `x402Client` with
 * `@x402/evm`'s exact scheme over a viem local account), a hand-signed authorization for the
 * refusal cases (any field overridden, signed over any domain), and `@x402/core`'s
 * `HTTPFacilitatorClient` pointed at a sandbox with its API key. Test code, not the simulator.
 */
import { x402Client } from "@x402/core/client";
import { HTTPFacilitatorClient } from "@x402/core/http";
import type { PaymentPayload as CorePayload } from "@x402/core/types";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import type { LocalAccount } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { DEMO_X402_WALLET } from "../../demo/sandbox/x402-wallets.ts";
import type {
  Authorization,
  PaymentPayload,
  PaymentRequirements,
} from "../../worker/lib/x402/protocol.ts";
import { signAuthorization } from "../support/x402-sign.ts";

/** Base Sepolia USDC. */
export const USDC = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";

/**
 * Requirements for `amount` atomic USDC to the demo wallet on Base Sepolia (60 s to pay).
 * @example
 * requirements({ amount: "250000" });
 */
export function requirements(over: Partial<PaymentRequirements> = {}): PaymentRequirements {
  return {
    scheme: "exact",
    network: "eip155:84532",
    asset: USDC,
    amount: "250000",
    payTo: DEMO_X402_WALLET,
    maxTimeoutSeconds: 60,
    extra: { name: "USDC", version: "2" },
    ...over,
  };
}

/** A fresh payer (a viem local account with a random key). */
export function newPayer(): LocalAccount {
  return privateKeyToAccount(generatePrivateKey());
}

/**
 * The payment payload the x402 project's own client makes for `reqs` (its exact EVM scheme,
 * EIP-3009, signed by `payer`).
 * @example
 * const payload = await payWithX402Client(newPayer(), requirements());
 */
export async function payWithX402Client(
  payer: LocalAccount,
  reqs: PaymentRequirements,
): Promise<CorePayload> {
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: payer });
  return client.createPaymentPayload({
    x402Version: 2,
    resource: { url: "https://shop.example/pay/1", description: "Order 1" },
    accepts: [reqs as never],
  });
}

/**
 * A payment signed by hand: the authorization the client would make, with `auth` overrides,
 * signed by `signer` (default: the payer) over `domain` (default: the requirements' `extra`).
 * @example
 * await signedPayment(payer, requirements(), { validBefore: "1" });
 */
export async function signedPayment(
  payer: LocalAccount,
  reqs: PaymentRequirements,
  auth: Partial<Authorization> = {},
  opts: { signer?: LocalAccount; domainName?: string; accepted?: PaymentRequirements } = {},
): Promise<PaymentPayload> {
  const { authorization, signature } = await signAuthorization(payer, reqs, {
    authorization: auth,
    ...(opts.signer ? { signer: opts.signer } : {}),
    ...(opts.domainName ? { domainName: opts.domainName } : {}),
  });
  return {
    x402Version: 2,
    accepted: opts.accepted ?? reqs,
    payload: { signature, authorization },
  };
}

/**
 * `@x402/core`'s facilitator client for `<sandbox>/x402`, sending the API key on each path.
 * @example
 * const facilitator = facilitatorFor(sb.url, "sk_test");
 * await facilitator.getSupported();
 */
export function facilitatorFor(baseUrl: string, apiKey: string, timeoutMs = 10_000) {
  const headers = { "x-tenant-api-key": apiKey };
  return new HTTPFacilitatorClient({
    url: `${baseUrl}/x402`,
    timeoutMs,
    createAuthHeaders: async () => ({ verify: headers, settle: headers, supported: headers }),
  });
}

/** The body verify and settle take. */
export function facilitatorBody(payload: PaymentPayload | CorePayload, reqs: PaymentRequirements) {
  return { x402Version: 2, paymentPayload: payload, paymentRequirements: reqs };
}

/**
 * Polls `fn` until `ok` holds (or `ms` passes), returning the last value.
 * @example
 * await until(() => settlement(id), (s) => s.status === "confirmed");
 */
export async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 5000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
}
