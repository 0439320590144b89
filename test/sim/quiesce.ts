/**
 * @module quiesce
 * Brings a history to rest: every background step ends, faults are cleared, the service
 * redelivers what the worker did not acknowledge (never what it gave up on: those stay lost),
 * and time is driven by running the objects' alarms directly (reconciliation, the merchant
 * outbox) instead of sleeping through their schedules (`clock.ts`).
 */
import { env } from "cloudflare:workers";
import { sendDelivery } from "./act.ts";
import { timePasses } from "./clock.ts";
import { clearFaults, deliveriesOf } from "./service.ts";
import type { World } from "./world.ts";

/** Rounds of redelivery + alarms at most; each alarm run stands for "its scheduled time came". */
const ROUNDS = 6;

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
  const payoutStubs = world.payouts.map((o) =>
    env.PAYOUTS.get(env.PAYOUTS.idFromName(`payout:${o}`)),
  );
  let seq = -1;
  for (let round = 0; round < ROUNDS; round += 1) {
    let delivered = 0;
    for (const d of await deliveriesOf(world.base)) {
      if (world.acked.has(d.id) || world.lost.has(d.id)) continue;
      await sendDelivery(world, d, "redelivery");
      delivered += 1;
    }
    const ran = await timePasses(world.stub);
    for (const stub of payoutStubs) await timePasses(stub);
    world.note(`quiesce round ${round}: order alarm ran ${ran}`);
    // At rest: a round that delivered nothing and whose alarms changed nothing the widget sees.
    const now = (await world.snapshot()).seq;
    if (round > 0 && delivered === 0 && now === seq) return;
    seq = now;
  }
}
