/**
 * @module merchant-inbox
 * A fake merchant backend for worker tests: records every POST (all headers, raw body) and
 * answers 200 `{ok:true}`, or a configured failure status for the next N deliveries.
 */
import type { Hono } from "hono";
import { optionalInt } from "./fields.ts";
import { nowIso, type SandboxState } from "./state.ts";
import { dataResponse, invalidBody, plainJsonResponse, readJsonObject } from "./wire.ts";

/**
 * Registers /sandbox/merchant-inbox (POST record, GET list, `?contains=` filter, DELETE clear) and
 * /sandbox/merchant-inbox/behaviour (POST `{status, times}`).
 * @example
 * registerMerchantInbox(app, state);
 */
export function registerMerchantInbox(app: Hono, state: SandboxState): void {
  const inbox = state.inbox;
  app.post("/sandbox/merchant-inbox/behaviour", async (c) => {
    const body = await readJsonObject(c.req.raw);
    const status = optionalInt(body, "status", 200, 599);
    if (status === null) throw invalidBody("status is required");
    const times = optionalInt(body, "times", 0, 1_000_000) ?? 1;
    inbox.failures = times > 0 ? { status, remaining: times } : null;
    return dataResponse({ status, times });
  });
  app.post("/sandbox/merchant-inbox", async (c) => {
    const body = await c.req.text();
    const headers = Object.fromEntries(c.req.raw.headers as unknown as Iterable<[string, string]>);
    let status = 200;
    if (inbox.failures) {
      status = inbox.failures.status;
      inbox.failures.remaining -= 1;
      if (inbox.failures.remaining <= 0) inbox.failures = null;
    }
    inbox.entries.push({ at: nowIso(state), headers, body, status });
    return status < 300
      ? plainJsonResponse({ ok: true })
      : plainJsonResponse({ ok: false, status }, status);
  });
  // `?contains=` keeps the entries whose raw body contains it (one order's notifications).
  app.get("/sandbox/merchant-inbox", (c) => {
    const contains = new URL(c.req.url).searchParams.get("contains");
    return dataResponse(
      contains ? inbox.entries.filter((e) => e.body.includes(contains)) : inbox.entries,
    );
  });
  app.delete("/sandbox/merchant-inbox", () => {
    inbox.entries = [];
    inbox.failures = null;
    return new Response(null, { status: 204 });
  });
}
