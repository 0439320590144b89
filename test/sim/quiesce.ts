/**
 * @module quiesce
 * Brings a history to rest: every background step ends, faults are cleared, the service
 * redelivers what the worker did not acknowledge (never what it gave up on: those stay lost),
 * and time is driven by running the objects' alarms directly (reconciliation, the merchant
 * outbox) instead of sleeping through their schedules.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { sendDelivery } from "./act.ts";
import { clearFaults, deliveriesOf } from "./service.ts";
import type { World } from "./world.ts";

/** Rounds of redelivery + alarms; each alarm run stands for "its scheduled time came". */
const ROUNDS = 4;

/**
 * Redelivers and runs every object's alarm, `ROUNDS` times: the last round's alarms flush what
 * its deliveries changed (the merchant outbox).
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
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const d of await deliveriesOf(world.base)) {
      if (world.acked.has(d.id) || world.lost.has(d.id)) continue;
      await sendDelivery(world, d, "redelivery");
    }
    const ran = await runDurableObjectAlarm(world.stub);
    for (const stub of payoutStubs) await runDurableObjectAlarm(stub);
    world.note(`quiesce round ${round}: order alarm ran ${ran}`);
  }
}
