/**
 * @module clock
 * Simulated time for an object: "its schedule's time came". Running an alarm early
 * (`runDurableObjectAlarm`) is not enough when the alarm itself asks what is due at
 * `Date.now()`, as the reconciliation pass does: first every scheduled upstream read is made
 * due now, then the alarm runs. A test hook on storage, not on worker code: it touches only the
 * schedule columns (`upstream_objects.next_read_at`, `index_feed.next_at`), and does nothing
 * where a table does not exist (a worker without reconciliation or index).
 *
 * A read the deployment's budget defers (histories side by side take its windows) is not a
 * read: time passes to the budget's retry time and the read is forced again, so a quiescence
 * round never takes an unmade read for one that found nothing new (docs/SIM-FINDINGS.md, seeds 122,
 * 125, 130, 191 of the budget merge).
 */

import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { x402Payments } from "../../worker/order/x402/payments-table.ts";
import { expectedFault } from "../expected-faults.ts";
import { deploymentBudget, deploymentReconciler } from "../worker/helpers.ts";
import { admin } from "./service.ts";

/** Whether the object's storage has made table `name` yet (objects create tables on first use). */
function hasTable(sql: SqlStorage, name: string): boolean {
  return (
    sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", name).toArray()
      .length > 0
  );
}

/**
 * Lets time pass for one object until its next scheduled work, then runs its alarm; repeats
 * while a read it made due was deferred by the deployment's budget (reconciliation yields to
 * other histories' shopper calls: `core/converge/reconcile.ts`), waiting for the budget's next
 * window each time, as the reconciler would come back then. So a pass counts only once every
 * read it made due was made (or failed, which the quiescence rounds retry): a deferred read
 * is never taken for a read that found nothing new.
 * @example
 * await timePasses(world.stub); // true when an alarm ran
 */
export async function timePasses(stub: DurableObjectStub): Promise<boolean> {
  let ran = false;
  for (let pass = 0; pass < DEFERRED_PASSES; pass += 1) {
    await budgetPauseOver();
    const forcedAt = Date.now();
    const { forced, x402 } = await makeDue(stub, forcedAt);
    const runs = await runDurableObjectAlarm(stub);
    ran ||= runs;
    // Ours returns false when the runtime is running the same alarm on its own right now:
    // wait until that run has made (or failed, or deferred) every read made due.
    for (let poll = 0; !runs && poll < READ_POLLS; poll += 1) {
      if ((await readsDue(stub, forcedAt)) === 0) break;
      await sleep(READ_POLL_MS);
    }
    const retryAt = minAt(
      await deferredUntil(stub, forcedAt, forced),
      await x402Unread(stub, forcedAt, x402),
    );
    if (retryAt === null) return ran;
    await sleep(Math.min(Math.max(retryAt - Date.now(), 1), MAX_DEFERRAL_WAIT_MS));
  }
  return ran;
}

/** Times a pass comes back for reads the budget deferred (each ≤ one window, ~1 s, later). */
const DEFERRED_PASSES = 12;
/** A deferred read is due again at the budget's retry time: its next window. */
const MAX_DEFERRAL_WAIT_MS = 1_100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A followed object's read as the alarm left it. */
interface ReadState {
  key: string;
  failures: number;
  readAt: number | null;
  nextReadAt: number | null;
}

/** Every followed object's read state (none while the object has not made the table). */
function readStates(stub: DurableObjectStub): Promise<ReadState[]> {
  return runInDurableObject(stub, (_o, state: DurableObjectState) => {
    const sql = state.storage.sql;
    if (!hasTable(sql, "upstream_objects")) return [];
    return sql
      .exec("SELECT kind, id, failures, read_at, next_read_at FROM upstream_objects")
      .toArray()
      .map((r) => ({
        key: `${r.kind}|${r.id}`,
        failures: Number(r.failures),
        readAt: r.read_at === null ? null : Number(r.read_at),
        nextReadAt: r.next_read_at === null ? null : Number(r.next_read_at),
      }));
  }).catch(() => []);
}

const minAt = (a: number | null, b: number | null) =>
  a === null ? b : b === null ? a : Math.min(a, b);

/** An open x402 payment's settlement read as the order's alarm leaves it (`x402_payments`). */
interface X402Read {
  nonce: string;
  payer: string;
  transaction: string | null;
  settlementId: string | null;
  status: string;
  nextReadAt: number;
}

/**
 * Makes every followed read (and every index report backing off, and every open x402
 * payment's settlement read) due at `now` and sets the alarm for then; answers the failure
 * count of each read made due, by `kind|id`, and the x402 reads made due, by nonce.
 */
async function makeDue(
  stub: DurableObjectStub,
  now: number,
): Promise<{ forced: Map<string, number>; x402: Map<string, X402Read> }> {
  const forced = new Map<string, number>();
  const x402 = new Map<string, X402Read>();
  await runInDurableObject(stub, async (_o, state: DurableObjectState) => {
    const sql = state.storage.sql;
    let due = false;
    if (hasTable(sql, "upstream_objects")) {
      const rows = sql
        .exec("SELECT kind, id, failures FROM upstream_objects WHERE next_read_at IS NOT NULL")
        .toArray();
      for (const r of rows) forced.set(`${r.kind}|${r.id}`, Number(r.failures));
      sql.exec("UPDATE upstream_objects SET next_read_at = ? WHERE next_read_at IS NOT NULL", now);
      due = true;
    }
    // The order's x402 follow (`order/x402/follow-x402.ts`): a settle whose answer was lost, a
    // broadcast not yet confirmed, read from the service's settlements by the same alarm.
    if (hasTable(sql, "x402_payments")) {
      for (const r of x402Rows(sql)) if (r.nextReadAt > 0) x402.set(r.nonce, r);
      if (x402.size > 0) {
        sql.exec("UPDATE x402_payments SET next_read_at = ? WHERE next_read_at > 0", now);
        x402Payments.forgetKnown(sql);
        due = true;
      }
    }
    // The reconciler reads for the object in production; forced, its own alarm reads too.
    if (due) await state.storage.setAlarm(now);
    // A report to the account's index backing off after a failed call is due too.
    if (hasTable(sql, "index_feed")) {
      sql.exec("UPDATE index_feed SET next_at = ? WHERE sent_version < version", now);
    }
  }).catch(() => {});
  return { forced, x402 };
}

function x402Rows(sql: SqlStorage): X402Read[] {
  return sql
    .exec(
      "SELECT nonce, payer, transaction_hash, settlement_id, status, next_read_at FROM x402_payments",
    )
    .toArray()
    .map((r) => ({
      nonce: String(r.nonce),
      payer: String(r.payer),
      transaction: r.transaction_hash === null ? null : String(r.transaction_hash),
      settlementId: r.settlement_id === null ? null : String(r.settlement_id),
      status: String(r.status),
      nextReadAt: Number(r.next_read_at),
    }));
}

/** A request the service logged. */
interface Logged {
  at: string;
  method: string;
  path: string;
  query: Record<string, string>;
  status: number;
}

/**
 * When the x402 reads made due at `forcedAt` that were not made come due again (now + a
 * short pause), or null when each was made: its payment moved, or the service answered a read
 * of it (200, its request log) since. A read the budget deferred, or one a fault failed (the
 * settlement-read faults are not scoped to an order: another history's may hit this one's
 * read), is not a read that found nothing new.
 */
async function x402Unread(
  stub: DurableObjectStub,
  forcedAt: number,
  forced: Map<string, X402Read>,
): Promise<number | null> {
  if (forced.size === 0) return null;
  const now = await runInDurableObject(stub, (_o, state: DurableObjectState) =>
    hasTable(state.storage.sql, "x402_payments") ? x402Rows(state.storage.sql) : [],
  ).catch(() => [] as X402Read[]);
  const open = now.filter((r) => {
    const before = forced.get(r.nonce);
    if (!before || r.nextReadAt === 0) return false;
    return r.status === before.status && r.settlementId === before.settlementId;
  });
  if (open.length === 0) return null;
  const since = new Date(forcedAt - 5).toISOString();
  const { body } = await admin<{ data: Logged[] }>(
    `/sandbox/requests?method=GET&since=${encodeURIComponent(since)}`,
  );
  const answered = body.data.filter(
    (r) => r.status === 200 && r.path.startsWith("/x402/settlements"),
  );
  const same = (a: string | undefined, b: string | null) =>
    a !== undefined && b !== null && a.toLowerCase() === b.toLowerCase();
  const unread = open.filter(
    (row) =>
      !answered.some((r) =>
        row.settlementId
          ? r.path === `/x402/settlements/${row.settlementId}`
          : row.transaction
            ? same(r.query.transaction, row.transaction)
            : same(r.query.payer, row.payer),
      ),
  );
  if (unread.length === 0) return null;
  // The order defers a read its budget refused to the budget's retry time (the row's next
  // read); a read that failed comes back later still: forced again at most a window later.
  return Math.max(Date.now() + X402_REREAD_MS, Math.min(...unread.map((r) => r.nextReadAt)));
}
/** The shortest pause before an x402 read not made is forced again. */
const X402_REREAD_MS = 100;

/**
 * When the reads made due at `forcedAt` that were neither made nor failed (the budget had no
 * call for them, or the alarm's pass ended before them) are due again; null when there are none.
 */
async function deferredUntil(
  stub: DurableObjectStub,
  forcedAt: number,
  forced: Map<string, number>,
): Promise<number | null> {
  let at: number | null = null;
  for (const row of await readStates(stub)) {
    const failuresBefore = forced.get(row.key);
    if (failuresBefore === undefined || row.nextReadAt === null) continue;
    const made = row.readAt !== null && row.readAt >= forcedAt;
    if (made || row.failures !== failuresBefore) continue;
    at = Math.min(at ?? row.nextReadAt, row.nextReadAt);
  }
  return at;
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

/** How long `timePasses` waits for the runtime's own run of the alarm: 200 × 10 ms. */
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
async function readsDue(stub: DurableObjectStub, at: number): Promise<number> {
  const due = "next_read_at IS NOT NULL AND next_read_at <= ?";
  const x402 = "next_read_at > 0 AND next_read_at <= ?";
  return (
    (await countRows(stub, "upstream_objects", due, at).catch(() => 0)) +
    (await countRows(stub, "x402_payments", x402, at).catch(() => 0))
  );
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
 * Rows an object still owes the account's index (`core/events/index-feed.ts`).
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
      state.abort(expectedFault("simulated restart"));
    }).catch(() => {});
  }
  await budgetPauseOver();
  return stub.sweepNow();
}
