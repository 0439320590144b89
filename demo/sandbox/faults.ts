/**
 * @module faults
 * Fault injection per API path, for testing clients against a misbehaving service: `delay`,
 * `status` (429 with msBeforeNext, 5xx, 503 quoteUnavailable…), `timeout-after-create` (the
 * object IS created, the answer comes too late), `malformed` (truncated JSON or no `data`
 * envelope) and `stale` (a GET answers the object as it was at an earlier status, taken from
 * its webhook for that status: a lagging read replica) and `drop` (the object IS created,
 * then the connection breaks before the answer's body: what a timeout is to the client, without
 * the wait). Each fault is consumed `times` times, then removed. With `scope` (an orderId) it
 * only hits requests about that order (see fault-scope.ts).
 */
import type { Context, MiddlewareHandler } from "hono";
import type { Fault, FaultMode } from "./control-records.ts";
import { inScope, requestOrderId } from "./fault-scope.ts";
import { optionalInt, optionalString, requiredString } from "./fields.ts";
import type { SandboxState } from "./state.ts";
import { WEBHOOK_ONLY_FIELDS } from "./webhooks.ts";
import { dataResponse, errorResponse, invalidBody, parseJsonExact, WireError } from "./wire.ts";

const MODES: readonly FaultMode[] = [
  "delay",
  "status",
  "timeout-after-create",
  "drop",
  "malformed",
  "stale",
];

/**
 * Validates and registers a fault from a POST /sandbox/faults body.
 * @example
 * addFault(state, { path: "/invoice", mode: "status", status: new RawNumber("503") });
 */
export function addFault(state: SandboxState, body: Record<string, unknown>): Fault {
  const mode = requiredString(body, "mode") as FaultMode;
  if (!MODES.includes(mode)) throw invalidBody(`mode must be one of ${MODES.join(", ")}`);
  const path = requiredString(body, "path");
  if (!path.startsWith("/")) throw invalidBody("path must start with /");
  const variant = optionalString(body, "variant") ?? "truncated";
  if (variant !== "truncated" && variant !== "shape") {
    throw invalidBody("variant must be truncated or shape");
  }
  const asStatus = optionalString(body, "asStatus");
  if (mode === "stale" && !asStatus) throw invalidBody("mode stale needs asStatus");
  const fault: Fault = {
    id: `flt_${crypto.randomUUID()}`,
    method: optionalString(body, "method")?.toUpperCase() ?? null,
    path,
    mode,
    times: optionalInt(body, "times", 1, 1_000_000) ?? 1,
    delayMs: optionalInt(body, "delayMs", 0, 600_000) ?? (mode === "delay" ? 1000 : 15_000),
    status: optionalInt(body, "status", 400, 599) ?? 500,
    msBeforeNext: optionalInt(body, "msBeforeNext", 0, 3_600_000) ?? 1000,
    code: optionalString(body, "code"),
    variant,
    asStatus,
    scope: optionalString(body, "scope"),
  };
  state.faults.push(fault);
  return fault;
}

async function takeFault(state: SandboxState, c: Context): Promise<Fault | null> {
  const method = c.req.method;
  const path = new URL(c.req.url).pathname;
  const hits = (f: Fault) => f.path === path && (!f.method || f.method === method);
  if (!state.faults.some(hits)) return null;
  const orderId = state.faults.some((f) => hits(f) && f.scope)
    ? await requestOrderId(state, c)
    : null;
  const i = state.faults.findIndex((f) => hits(f) && (!f.scope || inScope(orderId, f.scope)));
  if (i < 0) return null;
  const fault = state.faults[i]!;
  fault.times -= 1;
  if (fault.times <= 0) state.faults.splice(i, 1);
  return fault;
}

function injectedError(f: Fault): WireError {
  if (f.status === 429) {
    return new WireError(429, f.code ?? "exceptions.rateLimit.exceeded", "Too many requests", {
      msBeforeNext: f.msBeforeNext,
    });
  }
  const fallback = f.status >= 500 ? "exceptions.internal.serverError" : "exceptions.sandbox.fault";
  return new WireError(f.status, f.code ?? fallback, "Injected fault");
}

/**
 * The object of a successful GET as it was when it last entered `asStatus`: the `data` of its
 * webhook for that status (exact numerals kept, the webhook-only fields such as `previousStatus`
 * dropped: `WEBHOOK_ONLY_FIELDS`). Any other answer,
 * or an object that never had that status, passes unchanged.
 */
async function staleAnswer(state: SandboxState, res: Response, asStatus: string) {
  if (res.status !== 200) return res;
  const text = await res.clone().text();
  const id = (JSON.parse(text) as { data?: { id?: unknown } }).data?.id;
  const hook = state.webhooks.findLast((w) => w.objectId === id && w.status === asStatus);
  if (!hook) return res;
  const data = (parseJsonExact(hook.body) as WebhookBody).data;
  return dataResponse(
    Object.fromEntries(Object.entries(data).filter(([k]) => !WEBHOOK_ONLY_FIELDS.includes(k))),
  );
}

type WebhookBody = { data: Record<string, unknown> };

/**
 * The answer's status line and headers, then a body that breaks off: the server has done the
 * work, the client can only see a failed read (a lost answer), at once.
 */
function droppedAnswer(res: Response): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"data":'));
      controller.error(new Error("sandbox fault: connection dropped"));
    },
  });
  const headers = new Headers(res.headers);
  headers.delete("content-length");
  return new Response(body, { status: res.status, headers });
}

/**
 * Middleware applying the first matching fault to an API request.
 * @example
 * app.use("*", faultMiddleware(state));
 */
export function faultMiddleware(state: SandboxState): MiddlewareHandler {
  return async (c, next) => {
    const fault = await takeFault(state, c);
    if (!fault) return next();
    if (fault.mode === "status") {
      c.res = errorResponse(injectedError(fault));
      return;
    }
    if (fault.mode === "delay") {
      await state.scheduler.sleep(fault.delayMs);
      return next();
    }
    await next();
    if (fault.mode === "timeout-after-create") {
      await state.scheduler.sleep(fault.delayMs);
      return;
    }
    if (fault.mode === "drop") {
      // Under @hono/node-server the connection itself is cut; elsewhere (app.fetch in a test)
      // the body breaks off: either way the client's read fails after the work was done.
      const outgoing = (c.env as { outgoing?: { destroy(): void } } | undefined)?.outgoing;
      outgoing?.destroy();
      c.res = outgoing ? new Response(null, { status: 500 }) : droppedAnswer(c.res);
      return;
    }
    if (fault.mode === "stale") {
      c.res = await staleAnswer(state, c.res, fault.asStatus ?? "");
      return;
    }
    const text = await c.res.text();
    const body =
      fault.variant === "truncated"
        ? text.slice(0, Math.max(1, Math.floor(text.length / 2)))
        : `{"unexpected":true,"payload":${text === "" ? "null" : text}}`;
    c.res = new Response(body, {
      status: 200,
      headers: { "content-type": "application/json; charset=utf-8" },
    });
  };
}
