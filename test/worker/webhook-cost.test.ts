/**
 * What one verified webhook costs in storage work, counted, with a ceiling (README "Webhook
 * CPU: the storage work one webhook causes"): every SQL statement, storage call, RPC and
 * outbound POST of the order object, the account's index and the stream hub, from the
 * webhook's arrival at its order until the inline alarm run that delivers its notification
 * and index feed has ended. A profile found no hot JavaScript on this path: the statements and
 * runtime calls are its cost, so a change that adds some must raise these numbers on purpose.
 *
 * Counted by wrapping the runtime's own prototypes (`SqlStorage.exec`, the storage's alarm and
 * transaction calls, `fetch`) and the RPC methods of the index and the hub, for the objects
 * involved only (an alarm of another object running meanwhile is not counted).
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { accountKey } from "../../worker/core/account/account-key.ts";
import { AccountObject } from "../../worker/core/account/account-object.ts";
import { parseConfig } from "../../worker/core/config/config.ts";
import { StreamHubObject } from "../../worker/core/streams/stream-hub-object.ts";
import { hubOf } from "../support/stream-hubs.ts";
import type { OrderObject } from "../support/worker-entry.ts";
import { worker } from "./helpers.ts";
import { suspendedWebhook } from "./orders.ts";

/**
 * The ceiling of SQL statements one status-changing webhook (processing → suspended: one
 * notification, the order's summary, the invoice's facts) runs across the order, the index
 * and the hub. `e3404b7` ran 47; each statement cut is listed in the README.
 */
const MAX_STATEMENTS = 36;

/** Undo for every wrapped method, run after each test. */
const restores: (() => void)[] = [];
afterEach(() => {
  for (const restore of restores.splice(0)) restore();
});

/** Counts calls of `proto[name]` whose receiver `counts` accepts, under `label`. */
function countCalls(
  proto: object,
  name: string,
  label: string,
  seen: string[],
  counts: (self: unknown) => boolean = () => true,
): void {
  const target = proto as Record<string, (...args: unknown[]) => unknown>;
  const original = target[name]!;
  target[name] = function (this: unknown, ...args: unknown[]) {
    if (counts(this)) seen.push(label);
    return original.apply(this, args);
  };
  restores.push(() => {
    target[name] = original;
  });
}

/** The SQL handles of the account's index and of the checkout's stream hub. */
async function neighbours(checkoutId: string): Promise<SqlStorage[]> {
  const config = parseConfig(env);
  if (!config.ok) throw new Error("test configuration invalid");
  const index = env.ACCOUNTS.get(env.ACCOUNTS.idFromName(accountKey(config.config)));
  const hub = hubOf(checkoutId);
  return [
    await runInDurableObject(index, (_o: AccountObject, state) => state.storage.sql),
    await runInDurableObject(hub, (_o: StreamHubObject, state) => state.storage.sql),
  ];
}

/** Applies the webhook and settles its alarm run; answers what it cost, by label. */
async function webhookCost(label: string, watch: boolean) {
  let stream: ReadableStreamDefaultReader<Uint8Array> | null = null;
  // Watched: a live stream of the checkout held open (its first frame read) until the end.
  const { id, stub, delivery } = await suspendedWebhook(label, async (checkout) => {
    if (!watch) return;
    stream = (await worker(`/v1/checkouts/${checkout}/events`)).body!.getReader();
    await stream.read();
  });
  const others = await neighbours(id);
  const seen: string[] = [];
  const ok = await runInDurableObject(stub, async (o: OrderObject, state) => {
    // At rest first: what the open, the lock and the first webhook owed is delivered.
    await o.host.alarm();
    await o.registrationsSettled();
    const ours = new Set<unknown>([state.storage.sql, ...others]);
    countCalls(Object.getPrototypeOf(state.storage.sql), "exec", "sql", seen, (s) => ours.has(s));
    const storage = Object.getPrototypeOf(state.storage) as object;
    const mine = (s: unknown) => s === state.storage;
    for (const name of ["transactionSync", "getAlarm", "setAlarm", "deleteAlarm", "get", "put"]) {
      countCalls(storage, name, name, seen, mine);
    }
    countCalls(AccountObject.prototype, "applyFeed", "rpc.applyFeed", seen);
    countCalls(StreamHubObject.prototype, "publish", "rpc.publish", seen);
    countCalls(globalThis, "fetch", "fetch", seen);
    const outcome = await o.applyInvoiceWebhook(delivery);
    await o.registrationsSettled();
    // The relay to the hub runs after the answer (`event-stream.ts`): wait for it.
    for (let i = 0; watch && i < 100 && !seen.includes("rpc.publish"); i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    return outcome.ok;
  });
  await (stream as ReadableStreamDefaultReader<Uint8Array> | null)?.cancel().catch(() => {});
  expect(ok).toBe(true);
  const tally = (label: string) => seen.filter((s) => s === label).length;
  return { seen, statements: tally("sql"), tally };
}

/** What every status-changing webhook costs, watched or not (`publishes`: hub RPCs). */
function expectCeiling(cost: Awaited<ReturnType<typeof webhookCost>>, publishes: number) {
  expect(cost.statements).toBeLessThanOrEqual(MAX_STATEMENTS);
  expect(cost.tally("transactionSync")).toBe(1);
  expect(cost.tally("fetch")).toBe(1);
  expect(cost.tally("rpc.applyFeed")).toBe(1);
  expect(cost.tally("rpc.publish")).toBe(publishes);
  expect(cost.tally("setAlarm")).toBe(1);
  expect(cost.tally("deleteAlarm")).toBe(1);
  expect(cost.tally("get") + cost.tally("put")).toBe(0);
}

describe("what one webhook costs", () => {
  it(`a webhook to an unwatched checkout runs at most ${MAX_STATEMENTS} SQL statements, one transaction, one merchant POST, one index RPC and sets its alarm once`, async () => {
    expectCeiling(await webhookCost("cost-unwatched", false), 0);
  });

  it("a webhook to a watched checkout costs the same statements and one publish RPC to its hub", async () => {
    expectCeiling(await webhookCost("cost-watched", true), 1);
  });
});
