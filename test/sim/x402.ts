/**
 * @module x402
 * The simulation's x402 side: a shopper (or an agent) pays the order's due amount from a fresh
 * wallet (an EIP-3009 authorization signed for the 402's terms, `PAYMENT-SIGNATURE` = base64
 * JSON), the same header replayed (after, or at the same time), a second payment while one is
 * open, the facilitator's faults, a settlement that fails on chain, a payer without the
 * money, and the service's `x402.payment.*` webhooks delivered, duplicated, reordered or lost.
 *
 * The sandbox's facilitator is one for every history side by side, and its faults cannot be
 * scoped to an order (an x402 call names a payment, not an order: `demo/sandbox/fault-scope.ts`),
 * nor are its "next settlement fails" and confirm delay. So every paying request of every
 * history goes through one lane (`x402Lane`): a history arms its facilitator fault, its
 * confirm delay and its failure inside the lane, right before its own request, and leaves
 * nothing armed behind (a fault its request never reached is spent by a request of the
 * simulation's own without the API key: the service's per-second count is of the worker's
 * calls only, `budget.ts`). Faults on the settlement reads (`/x402/settlements`) are the one
 * exception: the orders' alarms make those, so they hit whichever order reads next.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { decodeBase64Json, encodeBase64Json } from "../../worker/lib/x402/base64-json.ts";
import type { PaymentPayload, PaymentRequired } from "../../worker/lib/x402/protocol.ts";
import { expectedFault } from "../expected-faults.ts";
import { randomNonce, signAuthorization } from "../support/x402-sign.ts";
import { deliver, hmacHex, worker } from "../worker/helpers.ts";
import { admin, type Delivery, SANDBOX_URL } from "./service.ts";
import type { Step, X402Fault } from "./steps.ts";
import type { World, X402Signed } from "./world.ts";

/** A settlement as the service keeps it (`GET /sandbox/x402/settlements`). */
export interface ServiceSettlement {
  id: string;
  status: "submitted" | "confirmed" | "failed";
  amount: string;
  payer: string;
  payTo: string;
  transaction: string;
  errorReason: string | null;
  createdAt: string;
}

/** Every payer starts with 1,000 test USDC at the sandbox. */
const START_ATOMIC = 1_000_000_000n;

/** What the worker makes of an x402 answer, traced; a 500 `internal` is kept. */
async function answeredX402(world: World, what: string, res: Response): Promise<Response> {
  const text = await res.clone().text();
  const code = res.status >= 400 ? /"code":"([^"]+)"/.exec(text)?.[1] : undefined;
  const reason = /"reason":"([^"]+)"/.exec(text)?.[1];
  world.note(`${what} → ${res.status}${code ? ` ${code}` : ""}${reason ? ` (${reason})` : ""}`);
  if (code === "internal") world.internalErrors.push(what);
  return res;
}

let ipSerial = 0;
/** A client address of its own per request: the route's per-IP limit is not under test. */
function clientIp(): string {
  ipSerial += 1;
  return `10.${200 + (ipSerial % 50)}.${Math.floor(ipSerial / 250) % 250}.${ipSerial % 250}`;
}

function post(world: World, header: string | null): Promise<Response> {
  return worker(`/v1/checkouts/${world.checkoutId}/x402`, {
    method: "POST",
    headers: {
      "cf-connecting-ip": clientIp(),
      ...(header === null ? {} : { "PAYMENT-SIGNATURE": header }),
    },
  });
}

/** The 402's terms now, or null (paid, refunded, a payment open: the answer is traced). */
async function currentTerms(world: World): Promise<PaymentRequired | null> {
  const res = await answeredX402(world, "x402 terms", await post(world, null));
  if (res.status !== 402) return null;
  const required = decodeBase64Json(res.headers.get("PAYMENT-REQUIRED") ?? "") as PaymentRequired;
  world.x402Terms = required;
  return required;
}

/**
 * An authorization of `privateKey` for the terms `required` (its nonce given or fresh), as the
 * `PAYMENT-SIGNATURE` header; `validFor` seconds of validity.
 */
async function sign(
  privateKey: `0x${string}`,
  required: PaymentRequired,
  nonce = randomNonce(),
  validFor?: number,
): Promise<X402Signed> {
  const payer = privateKeyToAccount(privateKey);
  const req = required.accepts[0]!;
  const validBefore =
    validFor === undefined ? {} : { validBefore: String(Math.floor(Date.now() / 1000) + validFor) };
  const { authorization, signature } = await signAuthorization(payer, req, {
    authorization: { nonce, ...validBefore },
  });
  const payload: PaymentPayload = {
    x402Version: 2,
    resource: required.resource,
    accepted: req,
    payload: { signature, authorization },
  };
  return { payer: payer.address, nonce, header: encodeBase64Json(payload) };
}

/** A fresh payer's first authorization, remembered by the world (its payers are its truth). */
async function freshPayment(world: World, required: PaymentRequired): Promise<X402Signed> {
  const key = generatePrivateKey();
  const signed = await sign(key, required);
  world.x402Signed.push(signed);
  world.x402Keys.set(signed.payer, key);
  return signed;
}

// ---------------------------------------------------------------------------------------------
// The lane: one paying request (with what it armed) at a time, across histories.

let laneTail: Promise<void> = Promise.resolve();

/** Waits for the lane; answers its release (idempotent). */
async function enterLane(): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const before = laneTail;
  laneTail = before.then(() => held);
  await before;
  let done = false;
  return () => {
    if (done) return;
    done = true;
    release();
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The facilitator faults a paying request can meet (`Step` `x402.fault`). */
const FAULT_SPECS: Record<
  X402Fault,
  { path: string; mode: string; times: number; [k: string]: unknown } | null
> = {
  none: null,
  // One 5xx (verify is retried), or the facilitator down for every try of the call.
  "verify-5xx": { path: "/x402/verify", mode: "status", status: 503, times: 1 },
  "verify-down": { path: "/x402/verify", mode: "status", status: 503, times: 6 },
  // The facilitator's per-key limiter: the worker's verify is safe to retry.
  "verify-429": { path: "/x402/verify", mode: "status", status: 429, msBeforeNext: 30, times: 1 },
  // A 5xx from settle: the worker cannot know whether it settled (it did not).
  "settle-5xx": { path: "/x402/settle", mode: "status", status: 503, times: 1 },
  // A 429 is a refusal before any work: nothing settled, the claim released.
  "settle-429": { path: "/x402/settle", mode: "status", status: 429, msBeforeNext: 30, times: 1 },
  // Settled, then the connection breaks before the answer: outcome unknown to the worker.
  "settle-drop": { path: "/x402/settle", mode: "drop", times: 1 },
  // Settled, the answer comes after the worker's timeout: outcome unknown.
  "settle-timeout": {
    path: "/x402/settle",
    mode: "timeout-after-create",
    delayMs: 9_000,
    times: 1,
  },
  // The settle is held at the service while the order object restarts; it settles after.
  "settle-slow-restart": { path: "/x402/settle", mode: "delay", delayMs: 250, times: 1 },
};

async function armFault(spec: Record<string, unknown>, times: number): Promise<string | null> {
  const { body } = await admin<{ data: { id: string } }>("/sandbox/faults", {
    body: { method: spec.path === "/x402/settlements" ? "GET" : "POST", times, ...spec },
  });
  return body?.data?.id ?? null;
}

async function faultArmed(id: string): Promise<boolean> {
  const { body } = await admin<{ data: { id: string }[] }>("/sandbox/faults");
  return body.data.some((f) => f.id === id);
}

/**
 * Spends a fault the history's own request never reached (it was refused before the
 * facilitator): requests without the API key until it is gone. The fault answers them before
 * the key is checked; the service counts them as unauthorized, never as the worker's calls.
 */
async function spendFault(id: string, path: string): Promise<void> {
  for (let i = 0; i < 5 && (await faultArmed(id)); i += 1) {
    const controller = new AbortController();
    const call = fetch(`${SANDBOX_URL}${path}`, {
      method: path === "/x402/settlements" ? "GET" : "POST",
      headers: { "content-type": "application/json" },
      ...(path === "/x402/settlements" ? {} : { body: "{}" }),
      signal: controller.signal,
    })
      .then((r) => r.text())
      .catch(() => {});
    // A held answer (timeout-after-create) is not waited for: the fault is spent on arrival.
    await Promise.race([call, sleep(100)]);
    controller.abort();
  }
}

/** The payer's balance at the service, atomic. */
async function balanceOf(payer: string): Promise<bigint> {
  const { body } = await admin<{ data: { atomic: string } }>(
    `/sandbox/x402/payers/${payer}/balance`,
  );
  return BigInt(body.data.atomic);
}

// ---------------------------------------------------------------------------------------------
// Steps.

type PayStep = Extract<Step, { k: "x402" }>;

/**
 * A shopper pays the due amount by x402 from a fresh wallet, as the step says (its fault, a
 * replay, a second wallet at the same time, a payer short of money, a failure on chain).
 */
export async function payX402Step(world: World, step: PayStep): Promise<void> {
  const { stats } = world;
  stats.inject(`x402:pay:${step.fault}`);
  // The terms now; with none offered (a payment open, paid, refunded) the shopper signs for
  // the terms the checkout last showed: a second payment while one is open.
  const required = (await currentTerms(world)) ?? world.x402Terms;
  if (!required) return;
  if (world.x402Terms !== required) stats.inject("x402:pay:stale-terms");
  const first = await freshPayment(world, required);
  const amount = BigInt(required.accepts[0]!.amount);
  if (step.poor) {
    stats.inject("x402:payer-short");
    const short = (amount / 2n).toString();
    await admin(`/sandbox/x402/payers/${first.payer}/balance`, {
      body: { balance: (Number(short) / 1e6).toFixed(6) },
    });
  }
  const twin = step.twin ? await freshPayment(world, required) : null;
  let resigned: X402Signed | null = null;
  if (step.replay === "resigned") {
    // The same payer and nonce, another signature (a shorter validity): not the same request.
    resigned = await sign(world.x402Keys.get(first.payer)!, required, first.nonce, 200);
  }
  const release = await enterLane();
  const spec = FAULT_SPECS[step.fault];
  let faultId: string | null = null;
  let sent: Promise<unknown> = Promise.resolve();
  const disarm = async () => {
    if (faultId && (await faultArmed(faultId))) {
      world.note(`x402 fault ${step.fault} not reached: spent`);
      await spendFault(faultId, spec!.path);
    }
    faultId = null;
    if (step.failOnChain) await admin("/sandbox/x402/fail-next", { body: { times: 0 } });
  };
  try {
    await admin("/sandbox/x402/confirm-delay", { method: "PUT", body: { ms: step.confirmMs } });
    if (step.failOnChain) {
      stats.inject("x402:fail-on-chain");
      await admin("/sandbox/x402/fail-next", { body: { times: 1 } });
    }
    if (spec) {
      const { times, ...rest } = spec;
      faultId = await armFault(rest, times);
    }
    world.note(
      `x402 pay ${first.payer.slice(0, 10)} ${required.accepts[0]!.amount}${step.fault === "none" ? "" : ` fault ${step.fault}`}${step.poor ? " short" : ""}${step.failOnChain ? " fails-on-chain" : ""}${twin ? " +twin" : ""} confirm ${step.confirmMs}ms`,
    );
    const sends: Promise<unknown>[] = [
      post(world, first.header).then((r) => answeredX402(world, "x402 pay", r)),
    ];
    if (step.replay === "concurrent") {
      stats.inject("x402:replay:concurrent");
      sends.push(post(world, first.header).then((r) => answeredX402(world, "x402 replay(=)", r)));
    }
    if (twin) {
      stats.inject("x402:second-payment:concurrent");
      sends.push(post(world, twin.header).then((r) => answeredX402(world, "x402 twin pay", r)));
    }
    sent = Promise.allSettled(sends);
    if (step.fault === "settle-slow-restart" && faultId) {
      // Once the settle is held at the service, the order object restarts under it.
      const held = faultId;
      for (let i = 0; i < 200 && (await faultArmed(held)); i += 1) await sleep(5);
      stats.inject("x402:restart-during-settle");
      world.x402HeldUntil = Math.max(world.x402HeldUntil, Date.now() + 400);
      await runInDurableObject(world.stub, (_o, state) =>
        state.abort(expectedFault("sim restart during x402 settle")),
      ).catch(() => {});
      world.note("restart abort (x402 settle held at the service)");
    }
    if (step.fault === "settle-timeout" || step.fault === "settle-slow-restart") {
      // The settle lands (or its answer comes) late: the lane is kept until it was made (the
      // payer paid), so the confirm delay and the failure armed meet it; ≤ 3 s.
      if (step.fault === "settle-timeout") {
        world.x402HeldUntil = Math.max(world.x402HeldUntil, Date.now() + 9_500);
      }
      const until = Date.now() + 3_000;
      while (Date.now() < until && (await balanceOf(first.payer)) === START_ATOMIC) {
        if (step.fault === "settle-slow-restart" && Date.now() > world.x402HeldUntil) break;
        await sleep(10);
      }
    } else {
      await sent;
    }
    await disarm();
  } finally {
    await disarm().catch(() => {});
    release();
  }
  await sent;
  if (step.replay === "again") {
    stats.inject("x402:replay:after");
    await replayHeader(world, first.header, "x402 replay");
  }
  if (resigned) {
    stats.inject("x402:replay:resigned");
    await replayHeader(world, resigned.header, "x402 same-nonce other signature");
  }
}

/** Sends a header again through the lane (a replay may reach the facilitator: a released claim). */
async function replayHeader(world: World, header: string, what: string): Promise<void> {
  const release = await enterLane();
  try {
    await answeredX402(world, what, await post(world, header));
  } finally {
    release();
  }
}

/** A header the history sent before, sent again later (after its outcome, or while open). */
export async function replayStep(world: World, step: Extract<Step, { k: "x402-replay" }>) {
  const signed = world.x402Signed[step.pick % Math.max(1, world.x402Signed.length)];
  if (!signed) return;
  world.stats.inject("x402:replay:later");
  await replayHeader(world, signed.header, `x402 replay later ${signed.payer.slice(0, 10)}`);
}

/** A fault on the settlement reads: it hits whichever order's alarm reads next. */
export async function readFaultStep(world: World, step: Extract<Step, { k: "x402-read-fault" }>) {
  world.stats.inject(`x402:read:${step.mode}`);
  const spec =
    step.mode === "5xx"
      ? { path: "/x402/settlements", mode: "status", status: 503 }
      : { path: "/x402/settlements", mode: "status", status: 429, msBeforeNext: 50 };
  await armFault(spec, 1);
  world.note(`fault GET /x402/settlements ${step.mode} (unscoped)`);
}

// ---------------------------------------------------------------------------------------------
// The service's truth and its webhooks.

/** Every settlement of the history's payers, oldest first (never faulted). */
export async function settlementsOf(world: World): Promise<ServiceSettlement[]> {
  if (world.x402Signed.length === 0) return [];
  const payers = new Set(world.x402Signed.map((s) => s.payer.toLowerCase()));
  const { body } = await admin<{ data: ServiceSettlement[] }>("/sandbox/x402/settlements");
  return body.data.filter((s) => payers.has(s.payer.toLowerCase())).reverse();
}

/**
 * The service's x402 truth for the history, as one comparable string: each settlement of its
 * payers with its status ("" when the history signed nothing).
 * @example
 * const before = await x402Truth(world); // … later: unchanged means the service held still
 */
export async function x402Truth(world: World): Promise<string> {
  return (await settlementsOf(world)).map((s) => `${s.id}:${s.status}`).join(",");
}

/** The service's x402 deliveries for the history's settlements, oldest first. */
export async function x402DeliveriesOf(
  world: World,
  settlements?: ServiceSettlement[],
): Promise<Delivery[]> {
  const list = settlements ?? (await settlementsOf(world));
  const out: Delivery[] = [];
  for (const s of list) {
    const { body } = await admin<{ data: Delivery[] }>(
      `/sandbox/webhooks?objectId=${encodeURIComponent(s.id)}`,
    );
    out.push(...body.data);
  }
  return out;
}

/**
 * Waits until the history's settlements are final at the service (a held settle landed, each
 * settlement confirmed or failed), ≤ 3 s; answers them.
 */
export async function settlementsFinal(world: World): Promise<ServiceSettlement[]> {
  const wait = world.x402HeldUntil - Date.now();
  if (wait > 0) await sleep(wait);
  const until = Date.now() + 3_000;
  let list = await settlementsOf(world);
  while (Date.now() < until && list.some((s) => s.status === "submitted")) {
    await sleep(20);
    list = await settlementsOf(world);
  }
  return list;
}

/** The same signed envelope as other bytes, signed again with the service's key. */
async function reencoded(d: Delivery): Promise<Delivery> {
  const body = `{ ${d.body.slice(1)}`;
  return { ...d, body, signature: await hmacHex(env.WEBHOOK_SIGNING_KEY as string, body) };
}

/** POSTs one x402 delivery; a 2xx stops the service's redelivery. */
export async function sendX402Delivery(world: World, d: Delivery, how: string): Promise<number> {
  const res = await answeredX402(world, `x402 deliver(${how}) ${d.status}`, await deliver(d));
  if (res.status >= 200 && res.status < 300) world.acked.add(d.id);
  return res.status;
}

/** Delivers one settlement webhook as the step says (next, out of order, again, lost). */
export async function x402DeliverStep(world: World, step: Extract<Step, { k: "x402-deliver" }>) {
  const all = await x402DeliveriesOf(world);
  const pending = all.filter((d) => !world.acked.has(d.id) && !world.lost.has(d.id));
  const acked = all.filter((d) => world.acked.has(d.id));
  let d: Delivery | undefined = pending[0];
  if (step.how === "reorder")
    d = pending[pending.length - 1 - (step.pick % Math.max(1, pending.length))];
  if (step.how === "duplicate") d = acked[step.pick % Math.max(1, acked.length)];
  if (step.how === "replayed") d = all[step.pick % Math.max(1, all.length)];
  if (!d) return;
  world.stats.inject(`x402:delivery:${step.how}`);
  if (step.how === "lost") {
    world.lost.add(d.id);
    world.note(`x402 lost ${d.event} ${d.status}`);
    return;
  }
  if (step.how === "replayed") {
    await answeredX402(
      world,
      `x402 deliver(replayed) ${d.status}`,
      await deliver(await reencoded(d)),
    );
    return;
  }
  await sendX402Delivery(world, d, step.how);
}
