/**
 * Issue 20, item 3: the payment mode is decided only by the service's own answer, and a kept
 * decision is asked again after `MODE_RECHECK_MS`. A 404 to a currency lock that is not the
 * service's unknown-route answer (a gateway's page, another code) must not switch the
 * deployment to hosted; a hosted switch does not last for good.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import type { CheckoutSnapshot } from "../../packages/contract/src/http-api.ts";
import { parseConfig } from "../../worker/core/config/config.ts";
import { MODE_RECHECK_MS } from "../../worker/core/config/mode-decision.ts";
import {
  clearPaymentModeMemory,
  modeClock,
  paymentModeFor,
  switchToHosted,
} from "../../worker/core/config/payment-mode.ts";
import type { Env } from "../../worker/edge/env.ts";
import { isUnknownRoute, LOCK_CURRENCY_PATH } from "../../worker/service/currency-lock.ts";
import { UpstreamError } from "../../worker/service/errors.ts";
import { clearFaults } from "../support/sandbox-faults.ts";
import { fault, openCheckout, uniqueSub, upstreamRequests, worker } from "./helpers.ts";
import { lockCurrency as lock } from "./orders.ts";

const deployment = env as unknown as Env;
const config = (() => {
  const parsed = parseConfig(deployment);
  if (!parsed.ok) throw new Error(parsed.problems.join("; "));
  return parsed.config;
})();
const realNow = modeClock.now;

afterEach(async () => {
  modeClock.now = realNow;
  clearPaymentModeMemory();
  await clearFaults();
});

describe("only the service's own unknown-route answer means no lock", () => {
  it("reads the envelope's code: a 404 without it, or with another code, decides nothing", () => {
    const http = (status: number, code?: string) =>
      new UpstreamError("http", "x", { status, ...(code ? { code } : {}) });
    expect(isUnknownRoute(http(404, "exceptions.route.notFound"))).toBe(true);
    expect(isUnknownRoute(http(405, "exceptions.route.methodNotAllowed"))).toBe(true);
    // A gateway's HTML or JSON 404 (no service envelope, or a code that is not the service's).
    expect(isUnknownRoute(http(404))).toBe(false);
    expect(isUnknownRoute(http(405))).toBe(false);
    expect(isUnknownRoute(http(404, "gateway.notFound"))).toBe(false);
    expect(isUnknownRoute(http(404, "exceptions.sandbox.fault"))).toBe(false);
    expect(isUnknownRoute(http(404, "exceptions.invoice.notFound"))).toBe(false);
    expect(isUnknownRoute(http(404, "exceptions.account.notFound"))).toBe(false);
  });

  for (const code of [undefined, "gateway.notFound"]) {
    it(`a lock answered 404 ${code ?? "(not the service's code)"} fails once; order and deployment stay in-page`, async () => {
      const { body } = await openCheckout({ sub: uniqueSub("gw404") });
      expect(body.data.mode).toBe("in-page");
      await fault({
        path: LOCK_CURRENCY_PATH,
        method: "POST",
        mode: "status",
        status: 404,
        ...(code ? { code } : {}),
        times: 1,
      });
      const refused = await lock(body.data.id, "BTC");
      expect(refused.status).toBe(502);
      expect(refused.body.error?.code).toBe("upstream_error");
      clearPaymentModeMemory();
      expect((await paymentModeFor(deployment, config)).mode).toBe("in-page");
      // The next lock reaches the service and locks in-page.
      const locked = await lock(body.data.id, "BTC");
      expect(locked.status).toBe(200);
      expect(locked.body.data.mode).toBe("in-page");
      expect(locked.body.data.attempt.payment?.cryptoCurrencyCode).toBe("BTC");
      const view = (await (await worker(`/v1/checkouts/${body.data.id}`)).json()) as {
        data: CheckoutSnapshot;
      };
      expect(view.data.mode).toBe("in-page");
    });
  }
});

describe("a kept decision is asked again after MODE_RECHECK_MS (1 h)", () => {
  it("a hosted switch holds for the hour, then one probe finds the lock again", async () => {
    const probes = async () => (await upstreamRequests(LOCK_CURRENCY_PATH, "POST")).length;
    const t0 = Date.now() + 10 * MODE_RECHECK_MS; // past anything earlier tests kept
    modeClock.now = () => t0;
    await switchToHosted(deployment, config);
    expect((await paymentModeFor(deployment, config)).mode).toBe("hosted");
    const before = await probes();
    // Within the hour: this isolate and a fresh one (asking the record) stay hosted, no probe.
    modeClock.now = () => t0 + MODE_RECHECK_MS - 1;
    expect((await paymentModeFor(deployment, config)).mode).toBe("hosted");
    clearPaymentModeMemory();
    expect((await paymentModeFor(deployment, config)).mode).toBe("hosted");
    expect(await probes()).toBe(before);
    // After it: the service is asked once more and offers the lock.
    modeClock.now = () => t0 + MODE_RECHECK_MS + 1;
    const again = await paymentModeFor(deployment, config);
    expect(again).toMatchObject({ mode: "in-page", settled: true });
    expect(await probes()).toBe(before + 1);
    expect((await paymentModeFor(deployment, config)).mode).toBe("in-page");
    expect(await probes()).toBe(before + 1);
  });
});
