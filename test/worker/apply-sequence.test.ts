/**
 * The one apply sequence (`worker/core/events/apply-sequence.ts`) on a real object's SQLite: a stale
 * change records its facts only; a change writes, queues its notifications, appends, and then
 * publishes before the alarm is armed (woken now when notifications were queued); a step that
 * throws leaves nothing written.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type ApplyHost, applyChange } from "../../worker/core/events/apply-sequence.ts";
import { notification } from "../../worker/core/events/outbox.ts";
import { Outbox } from "../../worker/core/events/outbox-capability.ts";
import { openCheckout, uniqueSub } from "./helpers.ts";

/** Runs `body` inside an opened order's object, with a host that records what it was asked. */
async function inOrder<T>(body: (host: ApplyHost, calls: string[], sql: SqlStorage) => Promise<T>) {
  const { body: opened } = await openCheckout({ sub: uniqueSub("seq") });
  const stub = env.ORDERS.get(env.ORDERS.idFromName(opened.data.id));
  return runInDurableObject(stub, async (_o: unknown, state: DurableObjectState) => {
    const calls: string[] = [];
    const host: ApplyHost = {
      storage: state.storage,
      outbox: new Outbox(state.storage.sql),
      arm: async () => void calls.push("arm"),
      wakeNow: async () => void calls.push("wake"),
    };
    state.storage.sql.exec("CREATE TABLE IF NOT EXISTS scratch (v TEXT)");
    return body(host, calls, state.storage.sql);
  });
}

const rows = (sql: SqlStorage, table: string) =>
  sql.exec<{ n: number }>(`SELECT count(*) AS n FROM ${table}`).one().n;

describe("the apply sequence", () => {
  it("a stale change records its facts only, appends what it says, and arms", async () => {
    const result = await inOrder(async (host, calls, sql) => {
      const outbox = rows(sql, "outbox");
      const event = await applyChange(
        host,
        {
          stale: true,
          record: () => void calls.push("record"),
          write: () => {
            calls.push("write");
            return [notification("order.paid", "now", {})];
          },
          append: () => {
            calls.push("append");
            return null;
          },
        },
        () => void calls.push("publish"),
      );
      return { event, calls, queued: rows(sql, "outbox") - outbox };
    });
    expect(result).toEqual({ event: null, calls: ["record", "append", "arm"], queued: 0 });
  });

  it("a change writes, queues, appends, then publishes before it wakes the alarm", async () => {
    const result = await inOrder(async (host, calls, sql) => {
      const outbox = rows(sql, "outbox");
      let queuedBeforeAppend = -1;
      const event = await applyChange(
        host,
        {
          stale: false,
          record: () => void calls.push("record"),
          write: () => {
            calls.push("write");
            sql.exec("INSERT INTO scratch (v) VALUES ('row')");
            return [notification("order.status_changed", "now", {})];
          },
          append: () => {
            calls.push("append");
            queuedBeforeAppend = rows(sql, "outbox") - outbox;
            return "event-1";
          },
        },
        (e) => void calls.push(`publish ${e}`),
      );
      return { event, calls, queuedBeforeAppend, scratch: rows(sql, "scratch") };
    });
    expect(result).toEqual({
      event: "event-1",
      calls: ["record", "write", "append", "publish event-1", "wake"],
      queuedBeforeAppend: 1,
      scratch: 1,
    });
  });

  it("a change that arms itself later (arm: false) arms nothing unless it queued notifications", async () => {
    const result = await inOrder(async (host, calls) => {
      const change = (notes: number) => ({
        stale: false,
        record: () => {},
        write: () =>
          Array.from({ length: notes }, () => notification("order.status_changed", "now", {})),
        append: () => null,
        arm: false,
      });
      await applyChange(host, change(0), () => {});
      const quiet = [...calls];
      await applyChange(host, change(1), () => {});
      return { quiet, calls };
    });
    expect(result).toEqual({ quiet: [], calls: ["wake"] });
  });

  it("a step that throws rolls the whole change back: nothing written, queued, published or armed", async () => {
    const result = await inOrder(async (host, calls, sql) => {
      const outbox = rows(sql, "outbox");
      let error = "";
      await applyChange(
        host,
        {
          stale: false,
          record: () => void sql.exec("INSERT INTO scratch (v) VALUES ('facts')"),
          write: () => [notification("order.paid", "now", {})],
          append: () => {
            throw new Error("append failed");
          },
        },
        () => void calls.push("publish"),
      ).catch((e: Error) => {
        error = e.message;
      });
      return { error, calls, scratch: rows(sql, "scratch"), queued: rows(sql, "outbox") - outbox };
    });
    expect(result).toEqual({ error: "append failed", calls: [], scratch: 0, queued: 0 });
  });
});
