/**
 * `POST /v1/checkouts/:id/x402`: paying an order from the payer's wallet through the sandbox's
 * x402 facilitator, by the x402 project's own client (`@x402/fetch` + `@x402/evm` over a viem
 * local account) and by hand-made payloads for each refusal.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { x402Client } from "@x402/core/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import type { LocalAccount } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CheckoutSnapshot } from "../../packages/contract/src/http-api.ts";
import { deploymentGates } from "../../worker/core/budget/install.ts";
import { installUpstreamGates } from "../../worker/core/config/upstream.ts";
import { decodeBase64Json, encodeBase64Json } from "../../worker/lib/x402/base64-json.ts";
import type {
  Authorization,
  PaymentPayload,
  PaymentRequired,
  PaymentRequirements,
} from "../../worker/lib/x402/protocol.ts";
import { x402Payments } from "../../worker/order/x402/payments-table.ts";
import { UpstreamError } from "../../worker/service/errors.ts";
import { GATE_REFUSAL } from "../../worker/service/transport.ts";
import { sleep } from "../support/wait.ts";
import { signAuthorization } from "../support/x402-sign.ts";
import {
  deliver,
  deliverAll,
  fault,
  ledgerOf,
  openCheckout,
  postJson,
  refundOrder,
  SANDBOX_URL,
  STOREFRONT,
  sandbox,
  simulate,
  uniqueIp,
  uniqueSub,
  upstreamInvoice,
  upstreamRequests,
  worker,
} from "./helpers.ts";
import { lockedCheckout, SHOPPER_TRON } from "./orders.ts";
import { readFrames } from "./sse-frames.ts";

type Snapshot = CheckoutSnapshot;
type Body = {
  data?: Snapshot;
  error?: { code: string; message: string; reason?: string } | string;
} & Partial<PaymentRequired>;

const pathOf = (id: string) => `/v1/checkouts/${id}/x402`;

/** A POST to the route as an agent (no Origin) or the widget (`origin`). */
async function post(id: string, headers: Record<string, string> = {}) {
  const res = await worker(pathOf(id), {
    method: "POST",
    headers: { "cf-connecting-ip": uniqueIp(), ...headers },
  });
  return { res, body: (await res.json()) as Body };
}

/** The 402's terms for a checkout. */
async function terms(id: string): Promise<{ required: PaymentRequired; req: PaymentRequirements }> {
  const { res } = await post(id);
  expect(res.status).toBe(402);
  const required = decodeBase64Json(res.headers.get("PAYMENT-REQUIRED") ?? "") as PaymentRequired;
  return { required, req: required.accepts[0]! };
}

const newPayer = (): LocalAccount => privateKeyToAccount(generatePrivateKey());

/** A payload signed by hand (any authorization field overridden), as `PAYMENT-SIGNATURE`. */
async function signed(
  payer: LocalAccount,
  required: PaymentRequired,
  auth: Partial<Authorization> = {},
  accepted: Partial<PaymentRequirements> = {},
): Promise<string> {
  const req = required.accepts[0]!;
  const { authorization, signature } = await signAuthorization(payer, req, { authorization: auth });
  const payload: PaymentPayload = {
    x402Version: 2,
    resource: required.resource,
    accepted: { ...req, ...accepted },
    payload: { signature, authorization },
  };
  return encodeBase64Json(payload);
}

/** The sandbox's settlements of a payer. */
async function settlementsOf(payer: string) {
  const { body } = await sandbox<{ data: { id: string; status: string; transaction: string }[] }>(
    `/x402/settlements?payer=${payer}&limit=50`,
    { headers: { "x-tenant-api-key": env.API_KEY as string } },
  );
  return body.data;
}

/** Signed x402 deliveries the sandbox made for a settlement. */
async function x402Deliveries(settlementId: string) {
  const { body } = await sandbox<{ data: { body: string; signature: string; event: string }[] }>(
    `/sandbox/webhooks?objectId=${encodeURIComponent(settlementId)}`,
  );
  return body.data;
}

async function confirmDelay(ms: number) {
  await sandbox("/sandbox/x402/confirm-delay", {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ms }),
  });
}

/** Waits for the sandbox to confirm (or fail) a payer's settlement; delivers its webhooks. */
async function settleAndDeliver(payer: string): Promise<number[]> {
  for (let i = 0; i < 100; i++) {
    const [s] = await settlementsOf(payer);
    if (s && s.status !== "submitted") {
      const statuses: number[] = [];
      for (const d of await x402Deliveries(s.id)) statuses.push((await deliver(d)).status);
      return statuses;
    }
    await sleep(50);
  }
  throw new Error("the settlement never left submitted");
}

async function setBalance(address: string, balance: string) {
  await sandbox(`/sandbox/x402/payers/${address}/balance`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ balance }),
  });
}

async function view(id: string): Promise<Snapshot> {
  return ((await (await worker(`/v1/checkouts/${id}`)).json()) as { data: Snapshot }).data;
}

/**
 * An order whose settle was made at the service but its answer lost (the sandbox times out after
 * creating the settlement): the route answered 202 with the payment `unknown`.
 */
async function lostSettle(label: string, amount: string) {
  const { body } = await openCheckout({ sub: uniqueSub(label), amount });
  const id = body.data.id;
  const { required } = await terms(id);
  const payer = newPayer();
  await fault({ path: "/x402/settle", mode: "timeout-after-create", times: 1 });
  const answer = await post(id, { "PAYMENT-SIGNATURE": await signed(payer, required) });
  expect(answer.res.status).toBe(202);
  return { id, payer, answer, stub: env.ORDERS.get(env.ORDERS.idFromName(id)) };
}

/** Makes the order's open x402 payments due and runs its alarm (one pass of the follow). */
async function readDueNow(stub: DurableObjectStub): Promise<void> {
  await runInDurableObject(stub, async (_o: unknown, state: DurableObjectState) => {
    state.storage.sql.exec("UPDATE x402_payments SET next_read_at = 1 WHERE next_read_at > 0");
    x402Payments.forgetKnown(state.storage.sql);
    await state.storage.setAlarm(Date.now());
  });
  await runDurableObjectAlarm(stub);
}

beforeEach(() => confirmDelay(0));

afterEach(async () => {
  await confirmDelay(0);
  await sandbox("/sandbox/x402/fail-next", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ times: 0 }),
  });
});

describe("x402: the terms", () => {
  it("answers 402 with PAYMENT-REQUIRED: the exact USDC amount due to the merchant's wallet on Base Sepolia, and what is bought", async () => {
    const sub = uniqueSub("x4t");
    const { body } = await openCheckout({ sub, amount: "12.34" });
    const snap = body.data;
    expect(snap.x402).toEqual({
      network: "eip155:84532",
      chainId: 84532,
      chainName: "Base Sepolia",
      symbol: "USDC",
      decimals: 6,
      amount: "12.340000",
    });
    expect(snap.x402Payment).toBeNull();
    const { res, body: required } = await post(snap.id);
    expect(res.status).toBe(402);
    expect(decodeBase64Json(res.headers.get("PAYMENT-REQUIRED") ?? "")).toEqual(required);
    expect(required.x402Version).toBe(2);
    expect(required.accepts).toEqual([
      {
        scheme: "exact",
        network: "eip155:84532",
        asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
        amount: "12340000",
        payTo: env.X402_PAY_TO,
        maxTimeoutSeconds: 300,
        extra: { name: "USDC", version: "2" },
      },
    ]);
    expect(required.resource?.url).toBe(`${env.PUBLIC_BASE_URL}${pathOf(snap.id)}`);
    expect(required.resource?.description).toContain(`Order ${sub}`);
    expect(required.resource?.description).toContain("12.34 USD");
    expect(Object.keys(required.extensions ?? {})).toContain("bazaar");
  });

  it("a browser from the storefront reads the x402 headers (CORS exposes them; the preflight allows PAYMENT-SIGNATURE)", async () => {
    const { body } = await openCheckout({ sub: uniqueSub("x4c"), amount: "5.00" });
    const { res } = await post(body.data.id, { origin: STOREFRONT });
    expect(res.status).toBe(402);
    expect(res.headers.get("access-control-expose-headers")).toContain("PAYMENT-REQUIRED");
    const preflight = await worker(pathOf(body.data.id), {
      method: "OPTIONS",
      headers: {
        origin: STOREFRONT,
        "access-control-request-method": "POST",
        "access-control-request-headers": "payment-signature",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")).toContain("payment-signature");
  });

  it("offers nothing for a non-USD order (snapshot x402 null, 409 x402_not_offered) and 404 for an unknown checkout", async () => {
    const { body } = await openCheckout({
      sub: uniqueSub("x4e"),
      amount: "10.00",
      currency: "EUR",
    });
    expect(body.data.x402).toBeNull();
    const { res, body: refused } = await post(body.data.id);
    expect(res.status).toBe(409);
    expect(refused.error).toMatchObject({ code: "x402_not_offered" });
    expect(refused.data?.id).toBe(body.data.id);
    const unknown = await post("AAAAAAAAAAAAAAAAAAAAAA");
    expect(unknown.res.status).toBe(404);
  });
});

describe("x402: an agent pays with the x402 project's own client", () => {
  it("@x402/fetch pays the 402, gets 200 + PAYMENT-RESPONSE; the webhook confirms it; the order is paid once, its open invoice cancelled", async () => {
    const sub = uniqueSub("x4a");
    // At the x402 client's default spend cap ($1 a payment): the client as an agent runs it.
    const { body } = await openCheckout({ sub, amount: "1.00" });
    const id = body.data.id;
    const payer = newPayer();
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: payer });
    const viaWorker = (input: RequestInfo | URL, init?: RequestInit) =>
      exports.default.fetch(new Request(input, init));
    const pay = wrapFetchWithPayment(viaWorker as typeof fetch, client);
    const res = await pay(`http://127.0.0.1:8787${pathOf(id)}`, { method: "POST" });
    expect(res.status).toBe(200);
    const settle = decodeBase64Json(res.headers.get("PAYMENT-RESPONSE") ?? "") as {
      success: boolean;
      transaction: string;
      network: string;
    };
    expect(settle.success).toBe(true);
    expect(settle.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    const paid = ((await res.json()) as { data: Snapshot }).data;
    expect(paid.x402Payment).toMatchObject({
      status: "submitted",
      payer: payer.address,
      amount: "1.000000",
      fiatAmount: "1.00",
      transaction: settle.transaction,
    });
    // Submitted is not yet money: nothing is applied before the service confirms.
    expect(paid.orderState).toBe("unpaid");
    expect(paid.x402, "no second wallet payment while one is open").toBeNull();

    const statuses = await settleAndDeliver(payer.address);
    expect(statuses).toEqual([200]);
    const after = await view(id);
    expect(after.orderState).toBe("paid");
    expect(after.amountPaid).toBe("1.00");
    expect(after.final).toBe(true);
    expect(after.x402Payment?.status).toBe("confirmed");
    const [settlement] = await settlementsOf(payer.address);
    // The same delivery again: a duplicate changes nothing.
    const [again] = await x402Deliveries(settlement!.id);
    expect((await deliver(again!)).status).toBe(200);
    expect((await view(id)).amountPaid).toBe("1.00");
    // The order's open invoice was cancelled at the service.
    const invoice = await upstreamInvoice(`cc-${sub}`);
    expect(invoice.body.data.status).toBe("cancelled");
    const ledger = await ledgerOf(sub);
    expect(ledger.amountPaid).toBe("1.00");
    expect(ledger.x402Payments).toEqual([
      expect.objectContaining({
        status: "confirmed",
        payer: payer.address,
        transaction: settle.transaction,
      }),
    ]);
    expect(ledger.notifications.filter((n) => n.type === "order.paid")).toHaveLength(1);
    // The merchant hears x402, the payer and the transaction in `order.paid`.
    let paidNote: { data: Record<string, unknown> } | undefined;
    for (let i = 0; i < 100 && !paidNote; i++) {
      const { body: inbox } = await sandbox<{ data: { body: string }[] }>(
        "/sandbox/merchant-inbox",
      );
      paidNote = inbox.data
        .map((entry) => JSON.parse(entry.body) as { type: string; data: Record<string, unknown> })
        .find((note) => note.type === "order.paid" && note.data.invoiceNumber === sub);
      if (!paidNote) await sleep(50);
    }
    expect(paidNote?.data).toMatchObject({
      paymentMethod: "x402",
      payer: payer.address,
      transaction: settle.transaction,
    });
  });
});

describe("x402: one settle per authorization and per order", () => {
  it("the same PAYMENT-SIGNATURE again gets the same answer and settles nothing more", async () => {
    const { body } = await openCheckout({ sub: uniqueSub("x4r"), amount: "3.00" });
    const id = body.data.id;
    const { required } = await terms(id);
    const payer = newPayer();
    const header = await signed(payer, required);
    const first = await post(id, { "PAYMENT-SIGNATURE": header });
    expect(first.res.status).toBe(200);
    const second = await post(id, { "PAYMENT-SIGNATURE": header });
    expect(second.res.status).toBe(200);
    expect(second.res.headers.get("PAYMENT-RESPONSE")).toBe(
      first.res.headers.get("PAYMENT-RESPONSE"),
    );
    expect(await settlementsOf(payer.address)).toHaveLength(1);
  });

  it("two different payments at once: one settles, the other gets 409 x402_in_flight", async () => {
    const { body } = await openCheckout({ sub: uniqueSub("x4i"), amount: "4.00" });
    const id = body.data.id;
    const { required } = await terms(id);
    const [a, b] = [newPayer(), newPayer()];
    const answers = await Promise.all([
      post(id, { "PAYMENT-SIGNATURE": await signed(a, required) }),
      post(id, { "PAYMENT-SIGNATURE": await signed(b, required) }),
    ]);
    const statuses = answers.map((x) => x.res.status).sort();
    expect(statuses).toEqual([200, 409]);
    const refused = answers.find((x) => x.res.status === 409)!;
    expect(refused.body.error).toMatchObject({ code: "x402_in_flight" });
    const settled =
      (await settlementsOf(a.address)).length + (await settlementsOf(b.address)).length;
    expect(settled).toBe(1);
  });
});

describe("x402: a payment that does not pay these terms changes nothing", () => {
  it.each([
    ["another amount", { value: "1" }, {}, 409, "x402_payload_mismatch"],
    [
      "another wallet",
      { to: "0x1111111111111111111111111111111111111111" },
      {},
      409,
      "x402_payload_mismatch",
    ],
    ["another network", {}, { network: "eip155:8453" }, 409, "x402_payload_mismatch"],
    ["an expired authorization", { validBefore: "1000" }, {}, 409, "x402_payload_mismatch"],
  ] as const)("%s → %i %s, nothing settled", async (_what, auth, accepted, status, code) => {
    const { body } = await openCheckout({ sub: uniqueSub("x4m"), amount: "6.00" });
    const { required } = await terms(body.data.id);
    const payer = newPayer();
    const answer = await post(body.data.id, {
      "PAYMENT-SIGNATURE": await signed(payer, required, auth, accepted),
    });
    expect(answer.res.status).toBe(status);
    expect(answer.body.error).toMatchObject({ code });
    expect(await settlementsOf(payer.address)).toEqual([]);
    expect((await view(body.data.id)).x402).not.toBeNull();
  });

  it("a payment signed for another order (its resource) → 409 x402_payload_mismatch", async () => {
    const one = await openCheckout({ sub: uniqueSub("x4o"), amount: "7.00" });
    const two = await openCheckout({ sub: uniqueSub("x4o"), amount: "7.00" });
    const { required } = await terms(one.body.data.id);
    const payer = newPayer();
    const answer = await post(two.body.data.id, {
      "PAYMENT-SIGNATURE": await signed(payer, required),
    });
    expect(answer.res.status).toBe(409);
    expect(answer.body.error).toMatchObject({ code: "x402_payload_mismatch" });
    expect(await settlementsOf(payer.address)).toEqual([]);
  });

  it("a malformed nonce (a signed payload altered) → 400 x402_payload_invalid", async () => {
    const { body } = await openCheckout({ sub: uniqueSub("x4n"), amount: "2.00" });
    const { required } = await terms(body.data.id);
    const payload = decodeBase64Json(await signed(newPayer(), required)) as {
      payload: { authorization: Authorization };
    };
    payload.payload.authorization.nonce = "0x12";
    const answer = await post(body.data.id, { "PAYMENT-SIGNATURE": encodeBase64Json(payload) });
    expect(answer.res.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: "x402_payload_invalid" });
  });

  it("not base64 JSON → 400 x402_payload_invalid", async () => {
    const { body } = await openCheckout({ sub: uniqueSub("x4b"), amount: "2.00" });
    const answer = await post(body.data.id, { "PAYMENT-SIGNATURE": "%%%not-base64%%%" });
    expect(answer.res.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: "x402_payload_invalid" });
  });
});

describe("x402: the facilitator refuses, fails or cannot answer", () => {
  it("a payer without enough USDC → 402 x402_payment_refused (insufficient balance); the order stays payable", async () => {
    const { body } = await openCheckout({ sub: uniqueSub("x4f"), amount: "9.00" });
    const { required } = await terms(body.data.id);
    const payer = newPayer();
    await setBalance(payer.address, "1.5");
    const answer = await post(body.data.id, { "PAYMENT-SIGNATURE": await signed(payer, required) });
    expect(answer.res.status).toBe(402);
    expect(answer.body.error).toMatchObject({
      code: "x402_payment_refused",
      reason: "invalid_exact_evm_insufficient_balance",
    });
    const after = await view(body.data.id);
    expect(after.x402Payment?.status).toBe("failed");
    expect(after.x402?.amount, "payable again").toBe("9.000000");
  });

  it("a settlement that fails on chain: submitted, then failed by the webhook; nothing applied, the order payable again", async () => {
    await sandbox("/sandbox/x402/fail-next", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ times: 1 }),
    });
    const { body } = await openCheckout({ sub: uniqueSub("x4x"), amount: "8.00" });
    const { required } = await terms(body.data.id);
    const payer = newPayer();
    const answer = await post(body.data.id, { "PAYMENT-SIGNATURE": await signed(payer, required) });
    expect(answer.res.status).toBe(200);
    expect(await settleAndDeliver(payer.address)).toEqual([200]);
    const after = await view(body.data.id);
    expect(after.x402Payment?.status).toBe("failed");
    expect(after.amountPaid).toBe("0.00");
    expect(after.orderState).toBe("unpaid");
    expect(after.x402).not.toBeNull();
  });

  it("the facilitator answers 503 to verify → 503 service_busy with Retry-After, nothing kept; the same payment then succeeds", async () => {
    const { body } = await openCheckout({ sub: uniqueSub("x4v"), amount: "5.50" });
    const { required } = await terms(body.data.id);
    const payer = newPayer();
    const header = await signed(payer, required);
    await fault({ path: "/x402/verify", mode: "status", status: 503, times: 3 });
    const busy = await post(body.data.id, { "PAYMENT-SIGNATURE": header });
    expect(busy.res.status).toBe(503);
    expect(busy.body.error).toMatchObject({ code: "service_busy" });
    expect(Number(busy.res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await settlementsOf(payer.address)).toEqual([]);
    const ok = await post(body.data.id, { "PAYMENT-SIGNATURE": header });
    expect(ok.res.status).toBe(200);
  });

  it("a settle whose answer is lost (made, then timed out): 202 pending; the order reads the settlement and converges to paid", async () => {
    const { id, payer, answer, stub } = await lostSettle("x4u", "2.50");
    expect(answer.body.data?.x402Payment?.status).toBe("unknown");
    expect(await settlementsOf(payer.address)).toHaveLength(1);
    // The order's alarm reads the service's settlements (no webhook: it has no route yet).
    for (let i = 0; i < 50 && (await view(id)).orderState !== "paid"; i++) {
      await readDueNow(stub);
      await sleep(50);
    }
    const after = await view(id);
    expect(after.orderState).toBe("paid");
    expect(after.x402Payment?.status).toBe("confirmed");
    expect(await settlementsOf(payer.address)).toHaveLength(1);
  });
});

describe("x402: following a lost settle while the budget is contested", () => {
  afterEach(() => installUpstreamGates(deploymentGates));

  it("a read the budget refuses is deferred to its retry time: no read made, no failure counted; another failure doubles the gap; once the budget frees, the order converges to paid", async () => {
    const { id, payer, stub } = await lostSettle("x4d", "1.25");
    const row = () =>
      runInDurableObject(stub, (_o: unknown, state: DurableObjectState) => {
        x402Payments.forgetKnown(state.storage.sql);
        return x402Payments.all(state.storage.sql)[0]!;
      });
    const readsOfPayer = async () =>
      (await upstreamRequests("/x402/settlements", "GET")).filter(
        (r) => r.query.payer?.toLowerCase() === payer.address.toLowerCase(),
      ).length;
    // The reconciliation lane's gate refuses as the budget does (no call free for 7 s).
    const refusal = new UpstreamError("http", "upstream budget: no reconcile call free", {
      status: 429,
      code: GATE_REFUSAL,
      retryAfterMs: 7_000,
    });
    const failure = new UpstreamError("http", "the service answered 503", { status: 503 });
    let refuse: UpstreamError | null = refusal;
    installUpstreamGates((config, priority, client) => {
      const shipped = deploymentGates(config, priority, client);
      if (priority !== "reconcile") return shipped;
      return {
        admit: async (deadline) => {
          if (refuse) throw refuse;
          return shipped.admit(deadline);
        },
        rateLimited: (ms) => shipped.rateLimited(ms),
      };
    });
    const before = await row();
    expect(before.status).toBe("unknown");
    const readsBefore = await readsOfPayer();
    const asked = Date.now();
    await readDueNow(stub);
    const deferred = await row();
    expect(deferred.status).toBe("unknown");
    expect(deferred.reads).toBe(before.reads); // no failure counted
    expect(deferred.nextReadAt).toBeGreaterThanOrEqual(asked + 7_000);
    expect(deferred.nextReadAt).toBeLessThan(asked + 7_000 + 5_000);
    expect(await readsOfPayer()).toBe(readsBefore); // no call made
    // Any other failure is a read that failed: counted, and the gap grows (2 s · 2^reads).
    refuse = failure;
    const failedAt = Date.now();
    await readDueNow(stub);
    const failed = await row();
    expect(failed.reads).toBe(before.reads + 1);
    expect(failed.nextReadAt).toBeGreaterThanOrEqual(failedAt + 2_000 * 2 ** before.reads);
    // The budget frees: the next read finds the settlement and the order is paid.
    refuse = null;
    for (let i = 0; i < 50 && (await view(id)).orderState !== "paid"; i++) {
      await readDueNow(stub);
      await sleep(50);
    }
    expect((await view(id)).orderState).toBe("paid");
    expect(await readsOfPayer()).toBeGreaterThan(readsBefore);
  });
});

describe("x402: a claim released while watchers saw it", () => {
  it("an event published while a payment is claimed shows it settling; when the settle is then refused before sending (429), watchers get an event: no payment, the wallet offered again", async () => {
    const { id, orderId } = await lockedCheckout("20.00", "x4rel");
    const { required } = await terms(id);
    const payer = newPayer();
    const live = await worker(`/v1/checkouts/${id}/events`, { headers: { origin: STOREFRONT } });
    expect(live.headers.get("content-type")).toContain("text/event-stream");
    // Verify answers late (the claim is held meanwhile); settle is then refused: never sent.
    await fault({ path: "/x402/verify", mode: "delay", delayMs: 1_500, times: 1 });
    await fault({
      path: "/x402/settle",
      mode: "status",
      status: 429,
      msBeforeNext: 1_000,
      times: 1,
    });
    const paying = post(id, { "PAYMENT-SIGNATURE": await signed(payer, required) });
    await sleep(400);
    // Money on the invoice meanwhile: its event's snapshot shows the claimed payment.
    expect((await simulate(orderId, "processing")).status).toBe(200);
    await deliverAll(orderId);
    const answer = await paying;
    expect(answer.res.status).toBe(429);
    expect(await settlementsOf(payer.address)).toEqual([]);
    // The third frame comes at once with the release (none without it: the stream stays silent).
    const read = await Promise.race([
      readFrames<Snapshot>(live, 3),
      sleep(10_000).then(() => null),
    ]);
    expect(read, "no event after the claim was released").not.toBeNull();
    const frames = read!.frames;
    expect(frames.map((f) => f.data.x402Payment?.status ?? null)).toEqual([null, "settling", null]);
    const last = frames[2]!.data;
    expect(last.x402).not.toBeNull();
    // What the watchers last saw is the order as it is (but the time it was built).
    expect({ ...last, updatedAt: null }).toEqual({ ...(await view(id)), updatedAt: null });
  });
});

describe("x402: webhooks", () => {
  it("a settlement to another wallet is acknowledged and ignored (202); a fresh one with no known transaction gets 503", async () => {
    const signedBody = async (data: Record<string, unknown>) => {
      const body = JSON.stringify({
        event: "x402.payment.settled",
        data,
        timestamp: new Date().toISOString(),
      });
      const key = await crypto.subtle.importKey(
        "raw",
        new TextEncoder().encode(env.WEBHOOK_SIGNING_KEY as string),
        { name: "HMAC", hash: "SHA-256" },
        false,
        ["sign"],
      );
      const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(body));
      const signature = [...new Uint8Array(mac)]
        .map((b) => b.toString(16).padStart(2, "0"))
        .join("");
      return { body, signature };
    };
    const settlement = {
      id: "set_x",
      status: "confirmed",
      network: "eip155:84532",
      asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
      amount: "1000000",
      payer: newPayer().address,
      payTo: "0x2222222222222222222222222222222222222222",
      transaction: `0x${"ab".repeat(32)}`,
      errorReason: null,
      createdAt: new Date().toISOString(),
      confirmedAt: new Date().toISOString(),
    };
    const other = await deliver(await signedBody(settlement));
    expect(other.status).toBe(202);
    const ours = await deliver(await signedBody({ ...settlement, payTo: env.X402_PAY_TO }));
    expect(ours.status).toBe(503);
    const old = new Date(Date.now() - 3_600_000).toISOString();
    const stale = await deliver(
      await signedBody({ ...settlement, payTo: env.X402_PAY_TO, createdAt: old }),
    );
    expect(stale.status).toBe(202);
    void SANDBOX_URL;
  });
});

describe("x402: both ways paying one order", () => {
  it("the invoice paid beside a confirmed wallet payment is an overpayment: the merchant refunds the invoice's money from the service balance; the wallet's stays paid", async () => {
    const { sub, id, orderId } = await lockedCheckout("20.00", "x4both");
    // Money arrives on the invoice (detected, confirming) while the shopper also pays by wallet.
    expect((await simulate(orderId, "processing")).status).toBe(200);
    await deliverAll(orderId);
    const { required } = await terms(id);
    const payer = newPayer();
    expect(
      (await post(id, { "PAYMENT-SIGNATURE": await signed(payer, required) })).res.status,
    ).toBe(200);
    expect(await settleAndDeliver(payer.address)).toEqual([200]);
    expect((await view(id)).orderState).toBe("paid");
    // An invoice with money on the way is not cancelled: it pays too.
    expect((await upstreamInvoice(orderId)).body.data.status).toBe("processing");
    expect((await simulate(orderId, "paid")).status).toBe(200);
    await deliverAll(orderId);
    const after = await view(id);
    expect(after).toMatchObject({
      orderState: "paid",
      amountPaid: "40.00",
      amountOverpaid: "20.00",
    });
    const ledger = await ledgerOf(sub);
    expect(ledger.notifications.filter((n) => n.type === "order.paid")).toHaveLength(1);
    // The refund returns the invoice's USDT (20.00 USD at 1:1), never the wallet's USDC.
    const set = await postJson(`/v1/checkouts/${id}/refund-address`, {
      cryptoCurrencyCode: "USDT_TRC20",
      address: SHOPPER_TRON,
    });
    expect(set.status).toBe(200);
    const refund = await refundOrder(sub);
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
    expect(refund.body.data).toMatchObject({ cryptoCurrencyCode: "USDT_TRC20", amount: "20" });
  });
});
