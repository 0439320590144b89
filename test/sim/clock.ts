/**
 * @module clock
 * Simulated time for an object: "its schedule's time came". Running an alarm early
 * (`runDurableObjectAlarm`) is not enough when the alarm itself asks what is due at
 * `Date.now()`, as the reconciliation pass does: first every scheduled upstream read is made
 * due now, then the alarm runs. A test hook on storage, not on worker code: it touches only the
 * schedule column (`upstream_objects.next_read_at`), and does nothing where that table does not
 * exist (a worker without reconciliation).
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";

/**
 * Lets time pass for one object until its next scheduled work, then runs its alarm.
 * @example
 * await timePasses(world.stub); // true when an alarm ran
 */
export async function timePasses(stub: DurableObjectStub): Promise<boolean> {
  await runInDurableObject(stub, (_o, state: DurableObjectState) => {
    const sql = state.storage.sql;
    const has = sql
      .exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'upstream_objects'")
      .toArray().length;
    if (has) {
      sql.exec(
        "UPDATE upstream_objects SET next_read_at = ? WHERE next_read_at IS NOT NULL",
        Date.now(),
      );
    }
  }).catch(() => {});
  return runDurableObjectAlarm(stub);
}
