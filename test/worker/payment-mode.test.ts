/**
 * The payment mode is decided by what the service offers, never by its hostname: a probe of
 * the currency-lock route against a sandbox with the lock and one serving the public API only,
 * the deployment's one remembered decision, `PAYMENT_MODE=hosted`, a lock the service does not
 * know switching the order and the deployment to hosted (no error for the shopper), the doctor
 * saying which mode and why, and a choice made on the service's page reaching the snapshot.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, inject, it } from "vitest";
import type { CheckoutSnapshot, CryptoCurrency } from "../../packages/contract/src/http-api.ts";
import { parseConfig } from "../../worker/core/config/config.ts";
import {
  clearPaymentModeMemory,
  modeKey,
  paymentModeFor,
} from "../../worker/core/config/payment-mode.ts";
import type { PaymentModeObject } from "../../worker/core/config/payment-mode-object.ts";
import { upstreamFor } from "../../worker/core/config/upstream.ts";
import { app } from "../../worker/edge/app.ts";
import type { DoctorReport } from "../../worker/edge/doctor/doctor-report.ts";
import type { Env } from "../../worker/edge/env.ts";
import type { OrderObject } from "../../worker/order/order-object.ts";
import { LOCK_CURRENCY_PATH, probeCurrencyLock } from "../../worker/service/currency-lock.ts";
import { announceExpectedFault } from "../expected-faults.ts";
import {
  deliverAll,
  openCheckout,
  postJson,
  SANDBOX_URL,
  simulate,
  token,
  uniqueIp,
  uniqueSub,
  upstreamInvoice,
  worker,
} from "./helpers.ts";

const PUBLIC_API = inject("publicApiSandboxUrl");
const envWith = (overrides: Partial<Env>) => ({ ...env, ...overrides }) as unknown as Env;
const configOf = (e: Env) => {
  const parsed = parseConfig(e);
  if (!parsed.ok) throw new Error(parsed.problems.join("; "));
  return parsed.config;
};
const publicEnv = envWith({ UPSTREAM_BASE_URL: PUBLIC_API });
const probesAt = async (base: string) => {
  const res = await fetch(
    `${base}/sandbox/requests?path=${encodeURIComponent(LOCK_CURRENCY_PATH)}`,
  );
  return ((await res.json()) as { data: unknown[] }).data.length;
};
const ctx = {
  waitUntil() {},
  passThroughOnException() {},
  props: {},
} as unknown as ExecutionContext;

beforeEach(() => clearPaymentModeMemory());

describe("probeCurrencyLock: asks the service, not its hostname", () => {
  it("offered by the sandbox with the extension, absent from the public API, unknown without an answer", async () => {
    const offered = await probeCurrencyLock(upstreamFor(configOf(env as unknown as Env)));
    expect(offered).toMatchObject({ found: "offered", status: 400 });
    const absent = await probeCurrencyLock(upstreamFor(configOf(publicEnv)));
    expect(absent).toEqual({ found: "absent", status: 404, code: "exceptions.route.notFound" });
    announceExpectedFault("the service is unreachable (closed port)");
    const nobody = await probeCurrencyLock(
      upstreamFor(configOf(envWith({ UPSTREAM_BASE_URL: "http://127.0.0.1:1" }))),
    );
    expect(nobody.found).toBe("unknown");
  });
});

describe("the deployment's payment mode", () => {
  it("is asked once and remembered by its record; another service is asked afresh", async () => {
    const config = configOf(publicEnv);
    const record = env.PAYMENT_MODES.get(env.PAYMENT_MODES.idFromName(modeKey(config)));
    const before = await probesAt(PUBLIC_API);
    const decisions = await runInDurableObject(record, async (o: PaymentModeObject) => {
      (o as unknown as { env: Env }).env = publicEnv;
      // Concurrent askers share one probe; later ones read the stored answer.
      const first = await Promise.all([
        o.decide(Date.now()),
        o.decide(Date.now()),
        o.decide(Date.now()),
      ]);
      return [...first, await o.decide(Date.now())];
    });
    for (const d of decisions) {
      expect(d.mode).toBe("hosted");
      expect(d.settled).toBe(true);
      expect(d.reason).toContain("unknown route");
    }
    expect(await probesAt(PUBLIC_API)).toBe(before + 1);
    // A fresh isolate (no memory) asks the record, which does not ask the service again.
    clearPaymentModeMemory();
    expect((await paymentModeFor(publicEnv, config)).mode).toBe("hosted");
    expect(await probesAt(PUBLIC_API)).toBe(before + 1);
    // The sandbox with the extension: in-page.
    const inPage = await paymentModeFor(env as unknown as Env, configOf(env as unknown as Env));
    expect(inPage.mode).toBe("in-page");
    expect(inPage.reason).toContain("offers the currency lock");
  });

  it("PAYMENT_MODE=hosted needs no question and opens hosted checkouts; a lock is 409 lock_unsupported", async () => {
    const forced = envWith({ PAYMENT_MODE: "hosted" });
    const before = await probesAt(SANDBOX_URL);
    const decision = await paymentModeFor(forced, configOf(forced));
    expect(decision).toMatchObject({ mode: "hosted", settled: true });
    expect(decision.reason).toContain("PAYMENT_MODE=hosted");
    const res = await app.fetch(
      new Request("http://127.0.0.1:8787/v1/checkouts", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          origin: "http://127.0.0.1:5173",
          "cf-connecting-ip": uniqueIp(),
        },
        body: JSON.stringify({ token: await token({ sub: uniqueSub("forced") }) }),
      }),
      forced,
      ctx,
    );
    expect(res.status).toBe(201);
    const snapshot = ((await res.json()) as { data: CheckoutSnapshot }).data;
    expect(snapshot.mode).toBe("hosted");
    expect(snapshot.attempt.paymentPageUrl).toMatch(/\/pay\//);
    const lock = await postJson(`/v1/checkouts/${snapshot.id}/currency`, {
      cryptoCurrencyCode: "BTC",
    });
    expect(lock.status).toBe(409);
    expect(((await lock.json()) as { error: { code: string } }).error.code).toBe(
      "lock_unsupported",
    );
    expect(await probesAt(SANDBOX_URL)).toBe(before);
  });

  it("PAYMENT_MODE must be auto or hosted (named, 503 config_error)", async () => {
    const parsed = parseConfig(envWith({ PAYMENT_MODE: "in-page" }));
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.problems).toEqual(["PAYMENT_MODE must be auto or hosted"]);
  });
});

describe("a lock the service does not know", () => {
  it("switches the order and the deployment to hosted and answers the hosted snapshot, not an error", async () => {
    const { body } = await openCheckout({ sub: uniqueSub("switch") });
    expect(body.data.mode).toBe("in-page");
    const list = (await (await worker("/v1/currencies")).json()) as { data: CryptoCurrency[] };
    const btc = list.data.find((c) => c.code === "BTC")!;
    const stub = env.ORDERS.get(env.ORDERS.idFromName(body.data.id));
    // The service behind this order stops offering the lock (the public API only).
    const locked = await runInDurableObject(stub, async (o: OrderObject) => {
      (o as unknown as { env: Env }).env = publicEnv;
      try {
        return await o.lockCurrency(btc);
      } finally {
        (o as unknown as { env: Env }).env = env as unknown as Env;
      }
    });
    expect(locked.ok).toBe(true);
    expect(locked.ok && locked.value.mode).toBe("hosted");
    expect(locked.ok && locked.value.attempt.payment).toBeNull();
    expect(locked.ok && locked.value.attempt.paymentPageUrl).toBe(body.data.attempt.paymentPageUrl);
    const record = env.PAYMENT_MODES.get(
      env.PAYMENT_MODES.idFromName(modeKey(configOf(publicEnv))),
    );
    const kept = await record.decide(Date.now());
    expect(kept.mode).toBe("hosted");
    expect(kept.reason).toContain("answered a currency lock as an unknown route");
    // The order stays hosted: the next lock is refused without asking the service.
    const again = await postJson(`/v1/checkouts/${body.data.id}/currency`, {
      cryptoCurrencyCode: "BTC",
    });
    expect(again.status).toBe(409);
    expect(
      (await (await worker(`/v1/checkouts/${body.data.id}`)).json()) as { data: CheckoutSnapshot },
    ).toMatchObject({
      data: { mode: "hosted" },
    });
  });
});

describe("GET /v1/doctor says which mode is in force and why", () => {
  const doctor = async (e: Env) => {
    const res = await app.fetch(
      new Request("http://127.0.0.1:8787/v1/doctor", {
        headers: { authorization: `Bearer ${env.MERCHANT_API_TOKEN}` },
      }),
      e,
      ctx,
    );
    return ((await res.json()) as { data: DoctorReport }).data;
  };

  it("in-page with the extension, hosted on the public API, hosted when forced", async () => {
    const withLock = await doctor(env as unknown as Env);
    expect(withLock.paymentMode.mode).toBe("in-page");
    expect(withLock.paymentMode.reason).toContain(LOCK_CURRENCY_PATH);
    const config = configOf(publicEnv);
    const record = env.PAYMENT_MODES.get(env.PAYMENT_MODES.idFromName(modeKey(config)));
    await runInDurableObject(record, async (o: PaymentModeObject) => {
      (o as unknown as { env: Env }).env = publicEnv;
      await o.decide(Date.now());
    });
    const publicOnly = await doctor(publicEnv);
    expect(publicOnly.ok).toBe(true);
    expect(publicOnly.paymentMode.mode).toBe("hosted");
    expect(publicOnly.paymentMode.reason).toMatch(/unknown route/);
    const forced = await doctor(envWith({ PAYMENT_MODE: "hosted" }));
    expect(forced.paymentMode).toEqual({
      mode: "hosted",
      reason: "PAYMENT_MODE=hosted: shoppers always pay on the service's payment page.",
    });
  });
});

describe("hosted mode: the payer's choice on the service's page", () => {
  it("reaches the snapshot from an invoice read: currency, exact amount, address, wallet link", async () => {
    const { body } = await openCheckout({ sub: uniqueSub("chosen"), amount: "20.00" });
    const invoiceId = (await upstreamInvoice(body.data.attempt.orderId)).body.data.id as string;
    // The payer chooses TRX on the sandbox's hosted page (no webhook for that).
    const chose = await fetch(`${SANDBOX_URL}/pay/${invoiceId}/currency`, {
      method: "POST",
      body: new URLSearchParams({ cryptoCurrencyCode: "TRX" }),
      redirect: "manual",
    });
    expect(chose.status).toBe(303);
    // The next read (here: a payment's webhook) brings the choice.
    await simulate(body.data.attempt.orderId, "processing");
    expect(await deliverAll(body.data.attempt.orderId)).toEqual([200]);
    const snap = (
      (await (await worker(`/v1/checkouts/${body.data.id}`)).json()) as {
        data: CheckoutSnapshot;
      }
    ).data;
    const upstream = (await upstreamInvoice(body.data.attempt.orderId)).body.data;
    expect(snap.attempt.status).toBe("processing");
    expect(snap.attempt.payment).toMatchObject({
      cryptoCurrencyCode: "TRX",
      network: "Tron",
      decimalPlaces: 6,
      amount: "166.666667",
      address: upstream.address,
      // Tron has no standard payment URI: no wallet link (copy and QR only), never a bare address.
      walletUri: null,
      expiresAt: upstream.expiresAt,
    });
  });

  it("successUrl and failedUrl claims reach the invoice (https, or loopback http)", async () => {
    const sub = uniqueSub("urls");
    const { status, body } = await openCheckout({
      sub,
      successUrl: "https://shop.example/ok",
      failedUrl: "http://127.0.0.1:5173/failed",
    });
    expect(status).toBe(201);
    // Where the service's page sends the payer: failedUrl after a failure …
    const returnTo = async (orderId: string) => {
      const id = (await upstreamInvoice(orderId)).body.data.id as string;
      const res = await fetch(`${SANDBOX_URL}/pay/${id}/status`);
      return ((await res.json()) as { returnTo: string | null }).returnTo;
    };
    await simulate(body.data.attempt.orderId, "fail");
    await deliverAll(body.data.attempt.orderId);
    expect(await returnTo(body.data.attempt.orderId)).toBe("http://127.0.0.1:5173/failed");
    // … and successUrl after the next attempt (`-2`) is paid: every attempt carries them.
    const retry = await postJson(`/v1/checkouts/${body.data.id}/retry`, {});
    const second = ((await retry.json()) as { data: CheckoutSnapshot }).data;
    expect(second.attempt.orderId).toBe(`cc-${sub}-2`);
    await simulate(second.attempt.orderId, "paid");
    expect(await returnTo(second.attempt.orderId)).toBe("https://shop.example/ok");
    for (const bad of ["http://shop.example/ok", "javascript:alert(1)", "not a url"]) {
      const res = await postJson(
        "/v1/checkouts",
        { token: await token({ sub: uniqueSub("badurl"), successUrl: bad }) },
        { "cf-connecting-ip": uniqueIp() },
      );
      expect(res.status, bad).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe(
        "validation_failed",
      );
    }
  });
});
