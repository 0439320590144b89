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
import { MAX_ATTEMPTS } from "../../worker/events/outbox.ts";

/** Whether the object's storage has made table `name` yet (objects create tables on first use). */
function hasTable(sql: SqlStorage, name: string): boolean {
  return (
    sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", name).toArray()
      .length > 0
  );
}

/**
 * Lets time pass for one object until its next scheduled work, then runs its alarm.
 * @example
 * await timePasses(world.stub); // true when an alarm ran
 */
export async function timePasses(stub: DurableObjectStub): Promise<boolean> {
  await runInDurableObject(stub, (_o, state: DurableObjectState) => {
    const sql = state.storage.sql;
    if (hasTable(sql, "upstream_objects")) {
      sql.exec(
        "UPDATE upstream_objects SET next_read_at = ? WHERE next_read_at IS NOT NULL",
        Date.now(),
      );
    }
  }).catch(() => {});
  return runDurableObjectAlarm(stub);
}

/**
 * Notifications an object still owes the merchant (undelivered, attempts left). Read inside the
 * object, so it also sees rows an alarm the runtime started on its own is delivering right now.
 *
 * @example
 * if ((await owedNotifications(world.stub)) > 0) await sleep(50);
 */
export async function owedNotifications(stub: DurableObjectStub): Promise<number> {
  return runInDurableObject(stub, (_o, state: DurableObjectState) => {
    const sql = state.storage.sql;
    if (!hasTable(sql, "outbox")) return 0;
    return Number(
      sql
        .exec(
          "SELECT COUNT(*) AS n FROM outbox WHERE delivered_at IS NULL AND attempts < ?",
          MAX_ATTEMPTS,
        )
        .one().n,
    );
  });
}
