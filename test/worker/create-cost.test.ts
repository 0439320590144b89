/**
 * What one checkout create costs its new order object in storage work, counted, with a ceiling
 * (README "Checkout create: lazy tables and the one write (h30b)"): every SQL statement and
 * key-value call of the order object from `POST /v1/checkouts` until its answer, and how many
 * of them come before the service's create leaves (the claims' commit holds that call). A
 * profile found no hot JavaScript on this path: the statements and runtime calls are its cost,
 * so a change that adds some must raise these numbers on purpose.
 *
 * Counted by wrapping the runtime's own prototypes (`SqlStorage.exec`, the synchronous
 * key-value storage, the alarm calls, `fetch`) for this order's object only.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { orderStubForInvoiceNumber } from "../../worker/order/order-stub.ts";
import { openCheckout, uniqueSub } from "./helpers.ts";

/**
 * SQL calls (`exec`; the DDL is one) a new order runs from its create's arrival to its answer
 * once the object was constructed. h30b's cuts reached 21 and were taken back for the worker
 * bundle's budget (README "Checkout create: lazy tables and the one write (h30b)").
 */
const MAX_STATEMENTS = 27;
/** Key-value calls of a new order's create. */
const MAX_KV_CALLS = 15;
/**
 * Key-value calls before the service's create leaves: the fiat minimum (read, written), the
 * claims (read, written), the mode, tolerance and redirects (written), the redirects read back.
 */
const MAX_KV_BEFORE_CALL = 8;

/** Undo for every wrapped method, run after each test. */
const restores: (() => void)[] = [];
afterEach(() => {
  for (const restore of restores.splice(0)) restore();
});

/** Records a call of `proto[name]` whose receiver is `self`, under `label`. */
function countCalls(proto: object, name: string, label: string, seen: string[], self: unknown) {
  const target = proto as Record<string, (...args: unknown[]) => unknown>;
  const original = target[name]!;
  target[name] = function (this: unknown, ...args: unknown[]) {
    if (this === self) seen.push(label);
    return original.apply(this, args);
  };
  restores.push(() => {
    target[name] = original;
  });
}

/** Opens a checkout for a new invoice number; answers what its order object did, in order. */
async function createCost(): Promise<string[]> {
  const sub = uniqueSub("cost-create");
  const { stub } = await orderStubForInvoiceNumber(env, sub, env.CHECKOUT_SIGNING_SECRET as string);
  // Touching the object before its create makes no storage (an unopened order creates none).
  const { sql, kv, storage } = await runInDurableObject(stub, (_o, state) => ({
    sql: state.storage.sql,
    kv: state.storage.kv,
    storage: state.storage,
  }));
  const seen: string[] = [];
  countCalls(Object.getPrototypeOf(sql) as object, "exec", "sql", seen, sql);
  for (const name of ["get", "put", "delete", "list"]) {
    countCalls(Object.getPrototypeOf(kv) as object, name, "kv", seen, kv);
  }
  for (const name of ["getAlarm", "setAlarm"]) {
    countCalls(Object.getPrototypeOf(storage) as object, name, name, seen, storage);
  }
  const fetchBefore = globalThis.fetch;
  globalThis.fetch = (...args: Parameters<typeof fetch>) => {
    const request = new Request(...args);
    // The service's create of the invoice (the catalogue's reads are other calls).
    const creates = request.method === "POST" && new URL(request.url).pathname.endsWith("/invoice");
    seen.push(creates ? "create" : "fetch");
    return fetchBefore(...args);
  };
  restores.push(() => {
    globalThis.fetch = fetchBefore;
  });
  const { status } = await openCheckout({ sub, amount: "25.00" });
  expect(status).toBe(201);
  return [...seen];
}

describe("what one checkout create costs its new order", () => {
  it(`a create runs at most ${MAX_STATEMENTS} SQL statements and ${MAX_KV_CALLS} key-value calls, at most ${MAX_KV_BEFORE_CALL} of them and no SQL before the service's create`, async () => {
    const seen = await createCost();
    const tally = (label: string, calls = seen) => calls.filter((s) => s === label).length;
    expect(tally("create")).toBe(1);
    const beforeCall = seen.slice(0, seen.indexOf("create"));
    expect(tally("sql")).toBeLessThanOrEqual(MAX_STATEMENTS);
    expect(tally("kv")).toBeLessThanOrEqual(MAX_KV_CALLS);
    // The object's tables are made after the service call, with its first rows.
    expect(tally("sql", beforeCall)).toBe(0);
    expect(tally("kv", beforeCall)).toBeLessThanOrEqual(MAX_KV_BEFORE_CALL);
    expect(tally("setAlarm")).toBe(1);
  });
});
