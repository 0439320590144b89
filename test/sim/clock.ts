/**
 * @module clock
 * Simulated time for an object: "its schedule's time came". Running an alarm early
 * (`runDurableObjectAlarm`) is not enough when the alarm itself asks what is due at
 * `Date.now()`, as the reconciliation pass does: first every scheduled upstream read is made
 * due now, then the alarm runs. A test hook on storage, not on worker code: it touches only the
 * schedule columns (`upstream_objects.next_read_at`, `index_feed.next_at`), and does nothing
 * where a table does not exist (a worker without reconciliation or index).
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { deploymentBudget, deploymentReconciler } from "../worker/helpers.ts";

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
  await budgetPauseOver();
  const now = Date.now();
  await runInDurableObject(stub, async (_o, state: DurableObjectState) => {
    const sql = state.storage.sql;
    if (hasTable(sql, "upstream_objects")) {
      sql.exec("UPDATE upstream_objects SET next_read_at = ? WHERE next_read_at IS NOT NULL", now);
      // The reconciler reads for the object in production; forced, its own alarm reads too.
      await state.storage.setAlarm(now);
    }
    // A report to the account's index backing off after a failed call is due too.
    if (hasTable(sql, "index_feed")) {
      sql.exec("UPDATE index_feed SET next_at = ? WHERE sent_version < version", now);
    }
  }).catch(() => {});
  const ran = await runDurableObjectAlarm(stub);
  // The runtime may be running the same alarm on its own right now (ours then returns false),
  // or a pass may leave reads for the next one: wait until every read made due was done.
  // A read the deployment's budget had no call for is deferred to its next window (≤ 1 s):
  // that is time passing too, and the runtime's own alarm makes it then.
  for (
    let poll = 0;
    poll < READ_POLLS && (await readsDue(stub, Date.now() + BUDGET_DEFERRAL_MS)) > 0;
    poll += 1
  ) {
    await new Promise((resolve) => setTimeout(resolve, READ_POLL_MS));
  }
  return ran;
}

/**
 * Waits out a pause of the deployment's reconciliation (a 429 any history met pauses every
 * history's reads until its `msBeforeNext`: the simulation's are ≤ 200 ms): time passing means
 * that pause passing too, or the alarm's reads would all be deferred.
 */
async function budgetPauseOver(): Promise<void> {
  const { pausedUntil } = await deploymentBudget().status();
  const wait = Math.min(pausedUntil - Date.now() + 5, MAX_PAUSE_WAIT_MS);
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}
const MAX_PAUSE_WAIT_MS = 2_000;

/** A read deferred by the budget is due again within one window (plus the sim's pauses). */
const BUDGET_DEFERRAL_MS = 1_200;

/** How long `timePasses` waits for the reads it made due: 200 × 10 ms. */
const READ_POLLS = 200;
const READ_POLL_MS = 10;

/**
 * Rows of `table` in the object's storage matching `where` (0 while the object has not made
 * the table yet), read inside the object: it also sees what an alarm the runtime started on
 * its own is doing right now.
 */
function countRows(
  stub: DurableObjectStub,
  table: string,
  where: string,
  ...args: SqlStorageValue[]
): Promise<number> {
  return runInDurableObject(stub, (_o, state: DurableObjectState) => {
    const sql = state.storage.sql;
    if (!hasTable(sql, table)) return 0;
    return Number(sql.exec(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`, ...args).one().n);
  });
}

/** Followed objects whose read was due at `at` and has not been done (nor rescheduled) since. */
function readsDue(stub: DurableObjectStub, at: number): Promise<number> {
  const due = "next_read_at IS NOT NULL AND next_read_at <= ?";
  return countRows(stub, "upstream_objects", due, at).catch(() => 0);
}

/**
 * Notifications an object still owes the merchant (undelivered, tries left).
 *
 * @example
 * if ((await owedNotifications(world.stub)) > 0) await sleep(50);
 */
export function owedNotifications(stub: DurableObjectStub): Promise<number> {
  return countRows(stub, "outbox", "delivered_at IS NULL AND attempts < attempt_limit");
}

/**
 * Rows an object still owes the account's index (`events/index-feed.ts`).
 *
 * @example
 * if ((await owedToIndex(world.stub)) > 0) await timePasses(world.stub);
 */
export function owedToIndex(stub: DurableObjectStub): Promise<number> {
  return countRows(stub, "index_feed", "sent_version < version");
}

/**
 * The account's reconciler sweeps every tracked object now (list pages within the budget,
 * single reads for those that left the open lists), after a restart when `restart`: its
 * table is durable, so nothing it tracked is lost.
 * @example
 * await reconcilerSweeps(true);
 */
export async function reconcilerSweeps(restart: boolean): Promise<unknown> {
  const stub = deploymentReconciler();
  if (restart) {
    await runInDurableObject(stub, (_o, state: DurableObjectState) => {
      state.abort("simulated restart");
    }).catch(() => {});
  }
  await budgetPauseOver();
  return stub.sweepNow();
}
