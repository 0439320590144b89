/**
 * @module app
 * Assembles a sandbox: state, the public API behind the API-key gate (with request log and
 * fault injection), the x402 facilitator, the /sandbox/* admin helpers, the hosted-page stand-in, error and 404
 * bodies in the service's shape, `x-request-id` on every response, and the expiry sweep.
 * Web-standard APIs only, so the app is portable beyond Node.
 */
import { type Context, Hono, type MiddlewareHandler } from "hono";
import { registerAdmin } from "./admin.ts";
import { registerAddressProvision } from "./api-address-provision.ts";
import { registerCatalog } from "./api-catalog.ts";
import { registerFunds } from "./api-funds.ts";
import { registerInvoices } from "./api-invoices.ts";
import { registerX402 } from "./api-x402.ts";
import { seedBalances } from "./balances.ts";
import { requestOrderId } from "./fault-scope.ts";
import { faultMiddleware } from "./faults.ts";
import { expireDue } from "./invoice-status.ts";
import { registerPayPage } from "./pay-page.ts";
import { rateLimitMiddleware } from "./rate-limit.ts";
import { requestIdMiddleware, requestLogMiddleware } from "./request-log.ts";
import { every } from "./scheduler.ts";
import { createState, DEFAULT_OPTIONS, type SandboxOptions, type SandboxState } from "./state.ts";
import { errorResponse, WireError } from "./wire.ts";
import { reportAnswer, wireObserved } from "./wire-observer.ts";
import { x402Wallets } from "./x402-wallets.ts";

export type { SandboxOptions } from "./state.ts";

/** A running sandbox app (not yet bound to a port). */
export interface Sandbox {
  app: Hono;
  state: SandboxState;
  options: SandboxOptions;
  /** Stops the expiry sweep, webhook retries and held responses. */
  dispose(): void;
}

/** How often `created` invoices past their deadline are expired without being touched. */
const SWEEP_MS = 1000;

/**
 * API requests: logged, then the per-key rate limit (when set), then faults, then the API key
 * check; /sandbox/* passes straight by.
 */
function gate(state: SandboxState): MiddlewareHandler {
  const log = requestLogMiddleware(state);
  const limit = state.options.rateLimit;
  const faults = limit === null ? faultMiddleware(state) : limited(state, limit);
  return (c, next) => {
    const path = new URL(c.req.url).pathname;
    if (path.startsWith("/sandbox/") || path === "/sandbox") return next();
    const work = trackWork(state, c);
    return log(c, async () => {
      await faults(c, async () => {
        try {
          if (
            !path.startsWith("/pay/") &&
            c.req.header("x-tenant-api-key") !== state.options.apiKey
          ) {
            c.res = errorResponse(
              new WireError(401, "exceptions.auth.invalidApiKey", "Invalid or missing API key"),
            );
          } else {
            await next();
          }
          // The handler's own answer, before any fault changes it (a test hook; off by default).
          // The x402 routes are not the merchant SDK's wire the observer checks against: their
          // tests check them against `@x402/core`'s own client instead.
          if (wireObserved() && !path.startsWith("/x402/")) {
            await reportAnswer(c.req.method, path, c.res);
          }
        } finally {
          work.done();
        }
      });
    }).finally(work.done);
  };
}

/**
 * The fault middleware behind the per-key rate limit (API calls only, not the hosted page a
 * browser opens): a refused request runs nothing else.
 */
function limited(state: SandboxState, limit: number): MiddlewareHandler {
  const rate = rateLimitMiddleware(limit, () => Date.now());
  const faults = faultMiddleware(state);
  return (c, next) =>
    new URL(c.req.url).pathname.startsWith("/pay/")
      ? faults(c, next)
      : rate(c, async () => {
          await faults(c, next);
        });
}

/**
 * Counts one request in `state.workInFlight` until its work is done: when the handler ran, or
 * when a fault answered without running it (`done` is idempotent). A `timeout-after-create`
 * answer held after the work no longer counts: the service's truth has already moved.
 */
function trackWork(state: SandboxState, c: Context): { done(): void } {
  const entry = {};
  state.workInFlight.set(entry, undefined);
  void requestOrderId(state, c).then((orderId) => {
    if (state.workInFlight.has(entry)) state.workInFlight.set(entry, orderId);
  });
  return {
    done() {
      state.workInFlight.delete(entry);
    },
  };
}

/**
 * Creates a sandbox; options not given take the defaults (see README).
 * @example
 * const { app, dispose } = createSandbox({ apiKey: "k", webhookUrl: null });
 * const res = await app.request("/currencies", { headers: { "x-tenant-api-key": "k" } });
 */
export function createSandbox(options: Partial<SandboxOptions> = {}): Sandbox {
  const given = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
  const resolved: SandboxOptions = { ...DEFAULT_OPTIONS, ...given };
  // Checked and made EIP-55 here too, for callers that pass them from code.
  resolved.x402Wallets = x402Wallets(resolved.x402Wallets);
  const state = createState(resolved);
  seedBalances(state);
  const app = new Hono();
  app.use("*", requestIdMiddleware());
  app.use("*", gate(state));
  registerAdmin(app, state);
  registerCatalog(app, state);
  registerInvoices(app, state);
  registerFunds(app, state);
  registerAddressProvision(app);
  registerX402(app, state);
  registerPayPage(app, state);
  app.notFound(() =>
    errorResponse(new WireError(404, "exceptions.route.notFound", "No such route")),
  );
  app.onError((err) => {
    if (err instanceof WireError) return errorResponse(err);
    return errorResponse(new WireError(500, "exceptions.internal.serverError", "Sandbox error"));
  });
  const stopSweep = every(SWEEP_MS, () => expireDue(state));
  return {
    app,
    state,
    options: resolved,
    dispose() {
      stopSweep();
      state.scheduler.dispose();
      state.sender.destroy();
    },
  };
}
