/**
 * @module quiesce
 * Brings a history to rest: every background step ends, faults are cleared, the service
 * finishes every request it holds (one the worker abandoned still takes effect), the service
 * redelivers what the worker did not acknowledge (never what it gave up on: those stay lost),
 * and time is driven by running the objects' alarms directly (reconciliation, the merchant
 * outbox) instead of sleeping through their schedules (`clock.ts`).
 */
import { env } from "cloudflare:workers";
import type { Env } from "../../worker/edge/env.ts";
import { refundOrderId } from "../../worker/lib/ids/upstream-order-id.ts";
import { payoutStub } from "../../worker/payout/payout-stub.ts";
import { sendDelivery } from "./act.ts";
import { owedNotifications, owedToIndex, timePasses } from "./clock.ts";
import { clearFaults, deliveriesOf, serviceSettled } from "./service.ts";
import type { World } from "./world.ts";
import { sendX402Delivery, settlementsFinal, x402DeliveriesOf, x402Truth } from "./x402.ts";

/** Rounds of redelivery + alarms at most; each alarm run stands for "its scheduled time came". */
const ROUNDS = 6;

/**
 * How long the last round waits for an alarm the runtime started by itself (an alarm set for
 * "now" fires at once, beside ours) to finish delivering: 200 × 10 ms. Notifications still owed
 * after that with no alarm left to send them are never sent, and the invariants say so.
 */
const SETTLE_POLLS = 200;
const SETTLE_POLL_MS = 10;

/**
 * Redelivers and runs every object's alarm, round after round, until a round delivers nothing
 * and changes nothing (at least two rounds, so the outbox flushes what the first one changed).
 * @example
 * await quiesce(world); // then check invariants
 */
export async function quiesce(world: World): Promise<void> {
  await Promise.allSettled(world.background);
  world.background.length = 0;
  await clearFaults(world.base);
  // The worker's own calls are over; a call it abandoned may still land at the service.
  await serviceSettled(world.base);
  // An x402 settle held at the service lands, and every settlement of the history's payers
  // confirms or fails (the sandbox's confirm delay): the service's x402 truth is final.
  const x402 = world.x402Signed.length > 0;
  if (x402) await settlementsFinal(world);
  // Merchant payouts, and the refunds' payouts (`-refund`, `-refund-n`): an uncertain refund
  // commit is resolved by its payout object's alarm, which then tells the order.
  // Only the order's beginRefund names one, one per merchant request at most.
  const refunds = Array.from({ length: world.refundRequests }, (_, i) =>
    refundOrderId("cc", world.sub, i + 1),
  );
  const payoutStubs = [...world.payouts, ...refunds].map((o) => payoutStub(env as Env, o));
  let seq = -1;
  let truth = x402 ? await x402Truth(world) : "";
  for (let round = 0; round < ROUNDS; round += 1) {
    let delivered = 0;
    for (const d of await deliveriesOf(world.base)) {
      if (world.acked.has(d.id) || world.lost.has(d.id)) continue;
      await sendDelivery(world, d, "redelivery");
      delivered += 1;
    }
    // The settlement webhooks too; one the worker cannot place yet (503: no route to its order
    // while the order did not learn its transaction from a settle answer) changes nothing.
    for (const d of x402 ? await x402DeliveriesOf(world) : []) {
      if (world.acked.has(d.id) || world.lost.has(d.id)) continue;
      const status = await sendX402Delivery(world, d, "redelivery");
      if (status >= 200 && status < 300) delivered += 1;
    }
    // Any order of these alarms is a history the runtime could run; the rounds repeat until
    // nothing changes, so running them side by side loses no interleaving that matters.
    const [ran] = await Promise.all([world.stub, ...payoutStubs].map((stub) => timePasses(stub)));
    world.note(`quiesce round ${round}: order alarm ran ${ran}`);
    // At rest: a round that delivered nothing, whose alarms changed nothing the widget sees, and
    // over which the service's x402 truth held still. A settle the worker sent before a restart
    // can reach the service late on a busy machine (after `serviceSettled`): the order's follow
    // finds it on a later read, so the rounds go on while the service's settlements move.
    const now = (await world.snapshot()).seq;
    const truthNow = x402 ? await x402Truth(world) : "";
    if (round > 0 && delivered === 0 && now === seq && truthNow === truth) return settle(world);
    if (truthNow !== truth) world.note(`quiesce round ${round}: the service's settlements moved`);
    seq = now;
    truth = truthNow;
  }
  await settle(world);
}

/**
 * Waits while the order object still owes notifications or reports to the account's index,
 * and something may yet send them.
 */
async function settle(world: World): Promise<void> {
  for (let poll = 0; poll < SETTLE_POLLS; poll += 1) {
    const owed = (await owedNotifications(world.stub)) + (await owedToIndex(world.stub));
    if (owed === 0) return;
    // A scheduled retry is due only later: make its time come now.
    if (await timePasses(world.stub)) continue;
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
  }
}
