/**
 * @module act
 * Runs one step of a history against the real worker (in workerd) and the real sandbox.
 * Answers are not judged here (a 409 or a passed-on 503 can be right); they are traced, and
 * the invariants judge the end state. The one answer never right is a 500 `internal`.
 */
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import Big from "big.js";
import { INVARIANT_BROKEN } from "../../worker/core/converge/invariant.ts";
import { expectedFault } from "../expected-faults.ts";
import {
  deliver,
  hmacHex,
  merchant,
  openCheckout,
  postJson,
  simulate,
  withoutRecord,
} from "../worker/helpers.ts";
import { reconcilerSweeps, timePasses } from "./clock.ts";
import { admin, type Delivery, deliveriesOf, fault, invoicesOf, withdrawalsOf } from "./service.ts";
import { LOCK_CURRENCIES, type Step, UPSTREAM_CALLS } from "./steps.ts";
import { Watcher } from "./watcher.ts";
import { BAD_ADDRESS, GOOD_ADDRESS, type World } from "./world.ts";
import { payX402Step, readFaultStep, replayStep, x402DeliverStep } from "./x402.ts";

/** Starts `step`; waits for it unless it runs in the background. */
export async function act(world: World, step: Step): Promise<void> {
  world.stats.steps += 1;
  const started = Date.now();
  const run = perform(world, step)
    .catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      world.note(`${step.k}: threw ${message}`);
      // A worker bug the worker asserted itself (`core/converge/invariant.ts`): never right.
      if (message.includes(INVARIANT_BROKEN)) world.internalErrors.push(`${step.k}: ${message}`);
    })
    .finally(() => world.stats.time(`step:${step.k}`, started));
  if ("bg" in step && step.bg) world.background.push(run);
  else await run;
}

/** Traces a worker answer; a 500 `internal` is kept for the invariants. */
async function answered(world: World, what: string, res: Response): Promise<Response> {
  const text = await res.clone().text();
  const code = res.status >= 400 ? /"code":"([^"]+)"/.exec(text)?.[1] : undefined;
  world.note(`${what} → ${res.status}${code ? ` ${code}` : ""}`);
  if (code === "internal") world.internalErrors.push(what);
  return res;
}

async function perform(world: World, step: Step): Promise<void> {
  const { stats } = world;
  switch (step.k) {
    case "lock":
      return lock(world, step);
    case "retry":
      stats.inject("shopper:retry");
      await answered(world, "retry", await postJson(`/v1/checkouts/${world.checkoutId}/retry`, {}));
      return;
    case "refund-address": {
      stats.inject(`shopper:refund-address:${step.valid ? "valid" : "bad-checksum"}`);
      const address = step.valid ? GOOD_ADDRESS : BAD_ADDRESS;
      const res = await postJson(`/v1/checkouts/${world.checkoutId}/refund-address`, {
        cryptoCurrencyCode: step.currency,
        address,
      });
      await answered(world, `refund-address ${step.currency} ${address.slice(-2)}`, res);
      return;
    }
    case "pay":
      return pay(world, step);
    case "deliver":
      return deliverStep(world, step);
    case "upstream": {
      stats.inject(`upstream:${step.call}:${step.mode}`);
      const { method, path } = UPSTREAM_CALLS[step.call];
      const spec = {
        "5xx": { mode: "status", status: 503 },
        "429": { mode: "status", status: 429, msBeforeNext: 30 },
        // The per-key limiter refusing several calls in a row, as a busy shop meets it.
        "429-storm": { mode: "status", status: 429, msBeforeNext: 200, times: 4 },
        drop: { mode: "drop" },
        malformed: { mode: "malformed", variant: "truncated" },
        slow: { mode: "delay", delayMs: 120 },
      }[step.mode];
      await fault({ method, path, times: 1, scope: world.base, ...spec });
      world.note(`fault ${method} ${path} ${step.mode}`);
      return;
    }
    case "refund": {
      stats.inject(`merchant:refund:${step.part ? "part" : "all"}`);
      if (step.address) await refundAddressForPayment(world);
      world.refundRequests += 1;
      const res = await merchant(`/v1/orders/${world.sub}/refund`, {
        method: "POST",
        ...(step.part ? { body: JSON.stringify({ amount: "10" }) } : {}),
      });
      await answered(world, `refund ${step.part ? "10" : "all"}`, res);
      return;
    }
    case "payout":
      return payout(world);
    case "withdrawal": {
      const list = await withdrawalsOf(world.base);
      if (list.length === 0) return;
      const w = list[step.pick % list.length]!;
      stats.inject(`service:withdrawal:${step.action}`);
      const r = await admin(`/sandbox/withdrawals/${w.id}/simulate`, {
        body: { action: step.action },
      });
      world.note(`service ${w.orderId} ${step.action} → ${r.status}`);
      return;
    }
    case "restart":
      // Eviction waits for in-flight requests to drain, and an open SSE stream never does:
      // with a watcher the object is aborted instead (its stream breaks, the widget reconnects).
      if (step.how === "evict" && !world.watcher) {
        stats.inject("restart:evict");
        await evictDurableObject(world.stub).catch(() => {});
      } else {
        stats.inject("restart:abort");
        await runInDurableObject(world.stub, (_o, state) =>
          state.abort(expectedFault("sim restart")),
        ).catch(() => {});
      }
      world.note(`restart ${step.how}`);
      return;
    case "reconcile": {
      stats.inject(`time:reconciler${step.restart ? ":restarted" : ""}`);
      const report = await reconcilerSweeps(step.restart);
      world.note(`reconciler swept: ${JSON.stringify(report)}`);
      return;
    }
    case "alarm":
      stats.inject("time:alarm");
      world.note(`alarm ran: ${await timePasses(world.stub)}`);
      return;
    case "x402":
      return payX402Step(world, step);
    case "x402-replay":
      return replayStep(world, step);
    case "x402-deliver":
      return x402DeliverStep(world, step);
    case "x402-read-fault":
      return readFaultStep(world, step);
    case "relock-flood":
      return relockFlood(world, step);
    case "watch":
      if (world.watcher) return;
      stats.inject("shopper:watch");
      world.watcher = new Watcher(world.checkoutId);
      world.note("watch");
      return;
  }
}

/** Currencies the simulation's valid refund address (a TRON address) belongs to. */
const TRON_CODES = new Set(["USDT_TRC20", "TRX"]);

/**
 * The shopper leaves the valid refund address in the currency the service received money in
 * (the newest such invoice), as the widget asks once there is money to return: without it a
 * merchant refund is refused (`refund_address_missing`) and never reaches the service.
 */
async function refundAddressForPayment(world: World): Promise<void> {
  const paid = (await invoicesOf(world.base))
    .filter((i) => i.cryptoCurrencyCode && new Big(i.cryptoAmountReceived ?? "0").gt(0))
    .at(-1);
  const code = paid?.cryptoCurrencyCode;
  if (!code || !TRON_CODES.has(code)) return;
  world.stats.inject("shopper:refund-address:before-refund");
  const res = await postJson(`/v1/checkouts/${world.checkoutId}/refund-address`, {
    cryptoCurrencyCode: code,
    address: GOOD_ADDRESS,
  });
  await answered(world, `refund-address ${code} (before refund)`, res);
}

/** One or two tabs lock a currency; with `slowFirst` the first lock's answer is late. */
async function lock(world: World, step: Extract<Step, { k: "lock" }>): Promise<void> {
  world.stats.inject(step.tabs.length === 2 ? "shopper:lock-two-tabs" : "shopper:lock");
  if (step.slowFirst) {
    world.stats.inject("upstream:lock:slow");
    await fault({ ...UPSTREAM_CALLS.lock, mode: "delay", delayMs: 120, scope: world.base });
  }
  const tabs = step.tabs.map(async (code, i) => {
    if (i > 0) await new Promise((r) => setTimeout(r, 20));
    const res = await postJson(`/v1/checkouts/${world.checkoutId}/currency`, {
      cryptoCurrencyCode: code,
    });
    await answered(world, `lock tab${i + 1} ${code}`, res);
  });
  await Promise.all(tabs);
}

/** Addresses the floods play (each flood two of its own: the per-client limits last a minute). */
let floodAddresses = 0;
const floodAddress = () => {
  floodAddresses += 1;
  return `10.201.${(floodAddresses >> 8) & 255}.${floodAddresses & 255}`;
};

/**
 * A client re-locking in a loop: one address opens `checkouts` checkouts (their invoice
 * numbers are the history's with a suffix, outside its order's scope) and re-locks each of
 * them `locks` times, alternating currencies, all checkouts at once, each lock as soon as the
 * last was answered, whatever it was answered; another shopper (an address of its own) opens
 * one checkout first, so it is an active client while the flood runs, and locks it meanwhile.
 * Refusals (429 `rate_limited`: the client's lock limit or its budget share) are right; a
 * 500 `internal` never is. The history's own order is not touched.
 */
async function relockFlood(world: World, step: Extract<Step, { k: "relock-flood" }>) {
  world.stats.inject(`attack:relock-flood:${step.checkouts}x${step.locks}`);
  const [attacker, shopper] = [floodAddress(), floodAddress()];
  const answers = new Map<string, number>();
  const tally = async (what: string, res: Response) => {
    const text = await res.text();
    const code = res.status >= 400 ? (/"code":"([^"]+)"/.exec(text)?.[1] ?? "") : "";
    if (code === "internal") world.internalErrors.push(`relock-flood ${what}`);
    const key = `${what} ${res.status}${code ? ` ${code}` : ""}`;
    answers.set(key, (answers.get(key) ?? 0) + 1);
    return text;
  };
  const victim = await openCheckout({ sub: `${world.sub}v`, amount: world.amount }, shopper);
  const ids: string[] = [];
  for (const i of Array.from({ length: step.checkouts }, (_, n) => n)) {
    const opened = await openCheckout({ sub: `${world.sub}a${i}`, amount: world.amount }, attacker);
    const key = `open ${opened.status}${opened.body.error ? ` ${opened.body.error.code}` : ""}`;
    answers.set(key, (answers.get(key) ?? 0) + 1);
    if (opened.body.error?.code === "internal") world.internalErrors.push("relock-flood open");
    if (opened.body.data?.id) ids.push(opened.body.data.id);
  }
  const lock = (id: string, code: string, ip: string) =>
    postJson(
      `/v1/checkouts/${id}/currency`,
      { cryptoCurrencyCode: code },
      { "cf-connecting-ip": ip },
    );
  const flood = ids.map(async (id, k) => {
    for (let n = 0; n < step.locks; n += 1)
      await tally(
        "lock",
        await lock(id, LOCK_CURRENCIES[(k + n) % LOCK_CURRENCIES.length]!, attacker),
      );
  });
  const victimId = victim.body.data?.id;
  const honest = victimId
    ? lock(victimId, "USDT_TRC20", shopper).then((res) => tally("shopper lock", res))
    : Promise.resolve("");
  await Promise.all([...flood, honest]);
  world.note(
    `relock-flood ${step.checkouts}×${step.locks}: shopper open → ${victim.status}; ${[...answers].map(([what, n]) => `${what} ×${n}`).join(", ")}`,
  );
}

/** The service moves an attempt the shopper was shown (the newest, or the one before). */
async function pay(world: World, step: Extract<Step, { k: "pay" }>): Promise<void> {
  const shown = (await world.snapshot()).attempt.number;
  const n = step.older && shown > 1 ? shown - 1 : shown;
  const orderId = n === 1 ? world.base : `${world.base}-${n}`;
  let amount: string | undefined;
  if (step.action === "partial" || step.action === "over") {
    const inv = (await invoicesOf(world.base)).find((i) => i.orderId === orderId);
    const expected = new Big(inv?.cryptoAmountExpected ?? world.amount);
    const due = expected.minus(inv?.cryptoAmountReceived ?? "0");
    const part = (step.action === "partial" ? due : expected).times(step.share).div(100);
    amount = part.round(2, Big.roundDown).toFixed(2);
    if (new Big(amount).lte(0)) amount = "0.01";
  }
  world.stats.inject(`service:${step.action}${step.older ? ":older-attempt" : ""}`);
  const r = await simulate(orderId, step.action, amount);
  world.note(`service ${orderId} ${step.action}${amount ? ` ${amount}` : ""} → ${r.status}`);
}

const READ_PATH: Record<string, string> = {
  "invoice.statusChanged": "/invoice",
  "withdrawal.statusChanged": "/withdrawal",
};

/**
 * The same signed envelope as other bytes (a space after the opening brace), signed with the
 * service's key: the same data and stamp, which the worker's body-hash dedupe does not catch.
 */
async function reencoded(d: Delivery): Promise<Delivery> {
  const body = `{ ${d.body.slice(1)}`;
  return { ...d, body, signature: await hmacHex(env.WEBHOOK_SIGNING_KEY as string, body) };
}

/** Pairs of deliveries of one object with other statuses, the older one first. */
function olderNewerPairs(all: Delivery[]): [Delivery, Delivery][] {
  return all.flatMap((older, i) =>
    all
      .slice(i + 1)
      .filter((newer) => newer.objectId === older.objectId && newer.status !== older.status)
      .map((newer): [Delivery, Delivery] => [older, newer]),
  );
}

/** Delivers one of the service's webhooks as the delivery fault says. */
async function deliverStep(world: World, step: Extract<Step, { k: "deliver" }>): Promise<void> {
  const all = await deliveriesOf(world.base);
  const pending = all.filter((d) => !world.acked.has(d.id) && !world.lost.has(d.id));
  const acked = all.filter((d) => world.acked.has(d.id));
  let d: Delivery | undefined = pending[0];
  if (step.how === "reorder") d = pending[step.pick % Math.max(1, pending.length)];
  if (step.how === "duplicate") d = acked[step.pick % Math.max(1, acked.length)];
  if (step.how === "replayed") d = all[step.pick % Math.max(1, all.length)];
  if (step.how === "older-data") {
    // The newer delivery first (as the service sends it), then the older one's payload again:
    // its data is older than what the worker knows.
    const pairs = olderNewerPairs(all);
    const pair = pairs[step.pick % Math.max(1, pairs.length)];
    if (!pair) return;
    const [older, newer] = pair;
    if (!world.acked.has(newer.id) && !world.lost.has(newer.id))
      await sendDelivery(world, newer, "older-data:newer");
    d = older;
  }
  if (!d) return;
  if (step.how === "replayed" || step.how === "older-data") {
    world.stats.inject(`delivery:${step.how}`);
    const res = await answered(
      world,
      `deliver(${step.how}) ${d.orderId} ${d.status}`,
      await deliver(await reencoded(d)),
    );
    // Only the worker's acknowledgement of the original bytes stops the service's redelivery.
    if (res.status >= 300 && res.status !== 503) world.note(`${step.how}: refused ${res.status}`);
    return;
  }
  world.stats.inject(`delivery:${step.how}`);
  if (step.how === "lost") {
    world.lost.add(d.id);
    world.note(`lost ${d.event} ${d.orderId} ${d.status}`);
    return;
  }
  const path = READ_PATH[d.event] ?? "/invoice";
  if (step.how === "stale") {
    const earlier = all.find((x) => x.objectId === d.objectId && x.status !== d.status);
    if (earlier) {
      await fault({
        method: "GET",
        path,
        mode: "stale",
        asStatus: earlier.status,
        scope: world.base,
      });
    }
  }
  const scope = world.base;
  if (step.how === "refetch-5xx") await fault({ method: "GET", path, mode: "status", scope });
  if (step.how === "slow-read") await fault({ method: "GET", path, mode: "delay", scope });
  // The read faults hit the refetch path: a delivery that carries no whole record.
  const prompt = ["stale", "refetch-5xx", "slow-read"].includes(step.how);
  await sendDelivery(world, prompt ? await withoutRecord(d) : d, step.how);
}

/** POSTs one delivery; a 2xx means the service stops redelivering it. */
export async function sendDelivery(world: World, d: Delivery, how: string): Promise<number> {
  const res = await answered(world, `deliver(${how}) ${d.orderId} ${d.status}`, await deliver(d));
  if (res.status >= 200 && res.status < 300) world.acked.add(d.id);
  return res.status;
}

/** The merchant quotes and commits a payout (its own object, its own orderId). */
async function payout(world: World): Promise<void> {
  const orderId = `${world.base}-po${world.payouts.length + 1}`;
  world.payouts.push(orderId);
  world.stats.inject("merchant:payout");
  const quote = await merchant("/v1/payouts", {
    method: "POST",
    body: JSON.stringify({
      orderId,
      cryptoCurrencyCode: "USDT_TRC20",
      address: GOOD_ADDRESS,
      amount: "12",
    }),
  });
  await answered(world, `payout quote ${orderId}`, quote);
  if (quote.status >= 300) return;
  const commit = await merchant(`/v1/payouts/${orderId}/commit`, { method: "POST" });
  await answered(world, `payout commit ${orderId}`, commit);
}
