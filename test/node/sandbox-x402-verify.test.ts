/**
 * The sandbox's x402 facilitator, verify side: a payment made by the x402 project's own client
 * (`@x402/core` + `@x402/evm`) verifies and settles through `@x402/core`'s own
 * `HTTPFacilitatorClient`; `supported` is what that client expects; each rule the facilitator
 * enforces refuses with the protocol's `invalidReason`; a malformed body is a 400, never a crash;
 * a call without the API key is a 401.
 */
import { describe, expect, it } from "vitest";
import { DEMO_X402_WALLET, FACILITATOR_ADDRESS } from "../../demo/sandbox/x402-wallets.ts";
import type { PaymentPayload, PaymentRequirements } from "../../worker/lib/x402/protocol.ts";
import { randomNonce } from "../support/x402-sign.ts";
import { useSandbox } from "./sandbox-kit.ts";
import {
  facilitatorBody,
  facilitatorFor,
  newPayer,
  payWithX402Client,
  requirements,
  signedPayment,
} from "./sandbox-x402-kit.ts";

const API_KEY = "sk_x402_verify";
const ACCOUNT = "33333333-3333-4333-8333-333333333333";
/** A second registered wallet, so `to` can differ from `payTo` with both registered. */
const OTHER_WALLET = "0x1111111111111111111111111111111111111111";
const { sb, api } = useSandbox(API_KEY, ACCOUNT, {
  x402Wallets: [DEMO_X402_WALLET, OTHER_WALLET],
  x402ConfirmMs: 100,
});

async function verify(payload: unknown, reqs: PaymentRequirements) {
  const r = await api("POST", "/x402/verify", facilitatorBody(payload as PaymentPayload, reqs));
  expect(r.status).toBe(200);
  return r.json as {
    isValid: boolean;
    invalidReason?: string;
    invalidMessage?: string;
    payer?: string;
  };
}

describe("x402 facilitator: the x402 project's own client", () => {
  it("GET /x402/supported is what HTTPFacilitatorClient reads: exact on Base Sepolia, our signer", async () => {
    const supported = await facilitatorFor(sb.url, API_KEY).getSupported();
    expect(supported).toEqual({
      kinds: [{ x402Version: 2, scheme: "exact", network: "eip155:84532" }],
      extensions: [],
      signers: { "eip155:*": [FACILITATOR_ADDRESS] },
    });
    // Bare JSON, not the merchant API's {data} envelope.
    const raw = await api("GET", "/x402/supported");
    expect(raw.json.data).toBeUndefined();
    expect(raw.json.kinds).toHaveLength(1);
  });

  it("a payload made by @x402/evm's exact client verifies and settles via HTTPFacilitatorClient", async () => {
    const payer = newPayer();
    const reqs = requirements({ amount: "250000" });
    const payload = await payWithX402Client(payer, reqs);
    const facilitator = facilitatorFor(sb.url, API_KEY);
    const verified = await facilitator.verify(payload, reqs as never);
    expect(verified).toMatchObject({ isValid: true, payer: payer.address });
    const settled = await facilitator.settle(payload, reqs as never);
    expect(settled).toMatchObject({
      success: true,
      payer: payer.address,
      network: "eip155:84532",
    });
    expect(settled.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    const list = await api("GET", `/x402/settlements?transaction=${settled.transaction}`);
    expect(list.json.data).toEqual([
      expect.objectContaining({
        status: "submitted",
        amount: "250000",
        payer: payer.address,
        payTo: DEMO_X402_WALLET,
        asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
        transaction: settled.transaction,
      }),
    ]);
    // Its nonce is now used: the same payload no longer verifies.
    const again = await facilitator.verify(payload, reqs as never);
    expect(again).toMatchObject({
      isValid: false,
      invalidReason: "invalid_exact_evm_nonce_already_used",
    });
  });

  it("a payload the client signed for another amount: a refusal HTTPFacilitatorClient returns, not throws", async () => {
    const reqs = requirements();
    const payload = await payWithX402Client(newPayer(), requirements({ amount: "1" }));
    const facilitator = facilitatorFor(sb.url, API_KEY);
    expect(await facilitator.verify(payload, reqs as never)).toMatchObject({
      isValid: false,
      invalidReason: "invalid_exact_evm_payload_authorization_value_mismatch",
    });
    expect(await facilitator.settle(payload, reqs as never)).toMatchObject({
      success: false,
      errorReason: "invalid_exact_evm_payload_authorization_value_mismatch",
      transaction: "",
    });
  });
});

describe("x402 facilitator: each refusal names the protocol's reason", () => {
  const now = () => Math.floor(Date.now() / 1000);

  const cases: [string, () => Promise<[unknown, PaymentRequirements]>, string][] = [
    [
      "signed by another key",
      async () => {
        const reqs = requirements();
        return [await signedPayment(newPayer(), reqs, {}, { signer: newPayer() }), reqs];
      },
      "invalid_exact_evm_signature",
    ],
    [
      "signed over the wrong token name (USD Coin, mainnet's) while the requirements say USDC",
      async () => {
        const reqs = requirements();
        return [await signedPayment(newPayer(), reqs, {}, { domainName: "USD Coin" }), reqs];
      },
      "invalid_exact_evm_signature",
    ],
    [
      "requirements and signature both over USD Coin: the token's own domain is USDC",
      async () => {
        const reqs = requirements({ extra: { name: "USD Coin", version: "2" } });
        return [await signedPayment(newPayer(), reqs), reqs];
      },
      "invalid_exact_evm_token_name_mismatch",
    ],
    [
      "the token's domain version is not 2",
      async () => {
        const reqs = requirements({ extra: { name: "USDC", version: "1" } });
        return [await signedPayment(newPayer(), reqs), reqs];
      },
      "invalid_exact_evm_token_version_mismatch",
    ],
    [
      "no token domain in extra",
      async () => {
        const reqs = requirements();
        const payload = await signedPayment(newPayer(), reqs);
        return [payload, { ...reqs, extra: {} }];
      },
      "invalid_exact_evm_missing_eip712_domain",
    ],
    [
      "to is not payTo (both registered)",
      async () => {
        const reqs = requirements();
        return [await signedPayment(newPayer(), reqs, { to: OTHER_WALLET }), reqs];
      },
      "invalid_exact_evm_recipient_mismatch",
    ],
    [
      "payTo is not a wallet the tenant registered",
      async () => {
        const reqs = requirements({ payTo: "0x2222222222222222222222222222222222222222" });
        return [await signedPayment(newPayer(), reqs), reqs];
      },
      "invalid_payment_requirements",
    ],
    [
      "value is not the amount",
      async () => {
        const reqs = requirements();
        return [await signedPayment(newPayer(), reqs, { value: "249999" }), reqs];
      },
      "invalid_exact_evm_payload_authorization_value_mismatch",
    ],
    [
      "validBefore has passed",
      async () => {
        const reqs = requirements();
        return [await signedPayment(newPayer(), reqs, { validBefore: String(now() - 10) }), reqs];
      },
      "invalid_exact_evm_payload_authorization_valid_before",
    ],
    [
      "validBefore lies beyond now + maxTimeoutSeconds (+ 30 s skew)",
      async () => {
        const reqs = requirements({ maxTimeoutSeconds: 60 });
        return [
          await signedPayment(newPayer(), reqs, { validBefore: String(now() + 60 + 120) }),
          reqs,
        ];
      },
      "invalid_exact_evm_payload_authorization_valid_before",
    ],
    [
      "validAfter is in the future",
      async () => {
        const reqs = requirements();
        return [await signedPayment(newPayer(), reqs, { validAfter: String(now() + 30) }), reqs];
      },
      "invalid_exact_evm_payload_authorization_valid_after",
    ],
    [
      "the payload's network is not the requirements'",
      async () => {
        const reqs = requirements();
        const accepted = { ...reqs, network: "eip155:8453" };
        return [await signedPayment(newPayer(), reqs, {}, { accepted }), reqs];
      },
      "invalid_exact_evm_network_mismatch",
    ],
    [
      "a network the facilitator does not settle on (Base mainnet)",
      async () => {
        const reqs = requirements({ network: "eip155:8453" });
        return [await signedPayment(newPayer(), reqs), reqs];
      },
      "invalid_network",
    ],
    [
      "a token that is not Base Sepolia USDC",
      async () => {
        const reqs = requirements({ asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" });
        return [await signedPayment(newPayer(), reqs), reqs];
      },
      "asset_not_deployed_contract",
    ],
    [
      "a scheme other than exact",
      async () => {
        const reqs = requirements({ scheme: "upto" });
        return [await signedPayment(newPayer(), reqs), reqs];
      },
      "invalid_exact_evm_scheme",
    ],
    [
      "x402 version 1",
      async () => {
        const reqs = requirements();
        return [{ ...(await signedPayment(newPayer(), reqs)), x402Version: 1 }, reqs];
      },
      "invalid_x402_version",
    ],
  ];

  for (const [name, make, reason] of cases) {
    it(`${name} → ${reason}`, async () => {
      const [payload, reqs] = await make();
      const verdict = await verify(payload, reqs);
      expect(verdict).toMatchObject({ isValid: false, invalidReason: reason });
      expect(verdict.invalidMessage).toEqual(expect.any(String));
      const { authorization } = (payload as PaymentPayload).payload as {
        authorization: { from: string };
      };
      expect(verdict.payer).toBe(authorization.from);
      // settle refuses the same way, and makes nothing.
      const before = sb.sandbox.state.x402.settlements.size;
      const settled = await api("POST", "/x402/settle", facilitatorBody(payload as never, reqs));
      expect(settled.json).toEqual({
        success: false,
        errorReason: reason,
        errorMessage: verdict.invalidMessage,
        payer: verdict.payer,
        transaction: "",
        network: reqs.network,
      });
      expect(sb.sandbox.state.x402.settlements.size).toBe(before);
    });
  }

  it("the same terms with each defect removed verify (the cases above fail for their reason only)", async () => {
    const reqs = requirements();
    expect(await verify(await signedPayment(newPayer(), reqs), reqs)).toEqual({
      isValid: true,
      payer: expect.any(String),
    });
    const other = requirements({ payTo: OTHER_WALLET });
    expect((await verify(await signedPayment(newPayer(), other), other)).isValid).toBe(true);
  });

  it("a nonce already settled, under a new signature → invalid_exact_evm_nonce_already_used", async () => {
    const payer = newPayer();
    const reqs = requirements();
    const nonce = randomNonce();
    const first = await signedPayment(payer, reqs, { nonce });
    expect((await api("POST", "/x402/settle", facilitatorBody(first, reqs))).json.success).toBe(
      true,
    );
    // Same nonce, another validBefore: another signature of the same payer.
    const second = await signedPayment(payer, reqs, {
      nonce,
      validBefore: String(Math.floor(Date.now() / 1000) + 50),
    });
    expect(second.payload.signature).not.toBe(first.payload.signature);
    expect(await verify(second, reqs)).toMatchObject({
      isValid: false,
      invalidReason: "invalid_exact_evm_nonce_already_used",
    });
    const settled = await api("POST", "/x402/settle", facilitatorBody(second, reqs));
    expect(settled.json).toMatchObject({
      success: false,
      errorReason: "invalid_exact_evm_nonce_already_used",
      transaction: "",
    });
    // Another payer may use the same nonce: the flag is per authorizer.
    const stranger = await signedPayment(newPayer(), reqs, { nonce });
    expect((await verify(stranger, reqs)).isValid).toBe(true);
  });

  it("a balance below the amount (set through the admin helper) → invalid_exact_evm_insufficient_balance", async () => {
    const payer = newPayer();
    const set = await fetch(`${sb.url}/sandbox/x402/payers/${payer.address}/balance`, {
      method: "POST",
      body: JSON.stringify({ balance: "0.249999" }),
    });
    expect(set.status).toBe(200);
    expect((await set.json()).data).toMatchObject({ balance: "0.249999", atomic: "249999" });
    const reqs = requirements({ amount: "250000" });
    const payload = await signedPayment(payer, reqs);
    expect(await verify(payload, reqs)).toMatchObject({
      isValid: false,
      invalidReason: "invalid_exact_evm_insufficient_balance",
    });
    // One atomic unit more and it verifies.
    await fetch(`${sb.url}/sandbox/x402/payers/${payer.address}/balance`, {
      method: "POST",
      body: JSON.stringify({ balance: "0.25" }),
    });
    expect((await verify(payload, reqs)).isValid).toBe(true);
  });
});

describe("x402 facilitator: bad calls", () => {
  it("without the API key: 401 exceptions.auth.invalidApiKey on every x402 route", async () => {
    const reqs = requirements();
    const body = JSON.stringify(facilitatorBody(await signedPayment(newPayer(), reqs), reqs));
    const before = sb.sandbox.state.x402.settlements.size;
    for (const [method, path] of [
      ["GET", "/x402/supported"],
      ["POST", "/x402/verify"],
      ["POST", "/x402/settle"],
      ["GET", "/x402/settlements"],
      ["GET", "/x402/settlements/x402_nope"],
    ] as const) {
      const r = await api(method, path, method === "POST" ? body : undefined, {
        "x-tenant-api-key": "wrong",
      });
      expect(r.status, path).toBe(401);
      expect(r.json.code).toBe("exceptions.auth.invalidApiKey");
    }
    // The settle without a key made nothing.
    expect(sb.sandbox.state.x402.settlements.size).toBe(before);
    const facilitator = facilitatorFor(sb.url, "wrong");
    await expect(facilitator.getSupported()).rejects.toThrow(/401/);
  });

  it("a malformed body is a 400 exceptions.validation.invalidBody naming the field", async () => {
    const reqs = requirements();
    const good = facilitatorBody(await signedPayment(newPayer(), reqs), reqs);
    const auth = good.paymentPayload.payload.authorization as Record<string, unknown>;
    const bodies: [unknown, RegExp][] = [
      ["{not json", /not valid JSON/],
      ["", /empty/],
      ["[]", /body must be an object/],
      [{ ...good, paymentPayload: undefined }, /paymentPayload must be an object/],
      [{ ...good, paymentRequirements: "x" }, /paymentRequirements must be an object/],
      [{ ...good, x402Version: "2" }, /x402Version must be an integer/],
      [
        { ...good, paymentRequirements: { ...reqs, amount: 250000 } },
        /paymentRequirements\.amount must be a string/,
      ],
      [
        { ...good, paymentRequirements: { ...reqs, amount: "1".repeat(79) } },
        /paymentRequirements\.amount must be a string of 1 to 78/,
      ],
      [
        { ...good, paymentRequirements: { ...reqs, amount: "9".repeat(78) } },
        /does not fit in uint256/,
      ],
      [
        { ...good, paymentRequirements: { ...reqs, payTo: "0x123" } },
        /paymentRequirements\.payTo is malformed/,
      ],
      [
        { ...good, paymentRequirements: { ...reqs, maxTimeoutSeconds: 1.5 } },
        /maxTimeoutSeconds must be an integer/,
      ],
      [
        { ...good, paymentRequirements: { ...reqs, network: "x".repeat(65) } },
        /network must be a string of 1 to 64/,
      ],
      [
        {
          ...good,
          paymentPayload: {
            ...good.paymentPayload,
            payload: { ...good.paymentPayload.payload, authorization: { ...auth, nonce: "0x12" } },
          },
        },
        /authorization\.nonce is malformed/,
      ],
      [
        {
          ...good,
          paymentPayload: {
            ...good.paymentPayload,
            payload: { ...good.paymentPayload.payload, signature: "zz" },
          },
        },
        /signature is malformed/,
      ],
      [{ ...good, extensions: { pad: "x".repeat(70_000) } }, /larger than 65536 bytes/],
    ];
    for (const [body, message] of bodies) {
      for (const path of ["/x402/verify", "/x402/settle"]) {
        const r = await api("POST", path, typeof body === "string" ? body : JSON.stringify(body));
        expect(r.status, `${path} ${String(message)}`).toBe(400);
        expect(r.json.code).toBe("exceptions.validation.invalidBody");
        expect(r.json.message).toMatch(message);
      }
    }
    // The sandbox still answers normally afterwards.
    expect((await api("POST", "/x402/verify", good)).json.isValid).toBe(true);
  });

  it("a signature of the right shape that recovers to nobody is refused, not a crash", async () => {
    const reqs = requirements();
    const payload = await signedPayment(newPayer(), reqs);
    const bad = { ...payload, payload: { ...payload.payload, signature: `0x${"00".repeat(65)}` } };
    const r = await api("POST", "/x402/verify", facilitatorBody(bad, reqs));
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ isValid: false, invalidReason: "invalid_exact_evm_signature" });
  });
});
