import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { app } from "../../worker/edge/app.ts";
import type { Env } from "../../worker/edge/env.ts";
import { checkoutIdFor } from "../../worker/lib/ids/checkout-id.ts";
import type { OrderObject } from "../../worker/order/order-object.ts";
import { deliverAll, SANDBOX_URL, STOREFRONT, simulate, token, uniqueSub } from "./helpers.ts";

/** Every request of this file runs with debug logging on: the worker… */
const debugEnv = { ...env, DEBUG_LOG: "true" } as Env;
const call = (path: string, init: RequestInit = {}) =>
  app.fetch(new Request(`http://127.0.0.1:8787${path}`, init), debugEnv, ctx);
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  call(path, {
    method: "POST",
    headers: { "content-type": "application/json", origin: STOREFRONT, ...headers },
    body: JSON.stringify(body),
  });
const bearer = { authorization: `Bearer ${env.MERCHANT_API_TOKEN}` };

/** …and the order's Durable Object (it reads its own bindings). */
async function debugOrderObject(sub: string) {
  const id = await checkoutIdFor("invoice", sub, env.CHECKOUT_SIGNING_SECRET as string);
  const stub = env.ORDERS.get(env.ORDERS.idFromName(id));
  await runInDurableObject(stub, (o: OrderObject) => {
    (o as unknown as { env: Env }).env = debugEnv;
  });
}

const SECRETS = [
  env.API_KEY,
  env.WEBHOOK_SIGNING_KEY,
  env.CHECKOUT_SIGNING_SECRET,
  env.MERCHANT_API_TOKEN,
  env.MERCHANT_WEBHOOK_SECRET,
] as string[];
const ctx = {
  waitUntil() {},
  passThroughOnException() {},
  props: {},
} as unknown as ExecutionContext;

describe("secrets never leave the worker", () => {
  const logged: string[] = [];
  beforeEach(() => {
    logged.length = 0;
    for (const level of ["log", "warn", "error", "info", "debug"] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        logged.push(args.map(String).join(" "));
      });
    }
  });
  afterEach(() => vi.restoreAllMocks());

  it("appear in no response body, header or log line across the API (debug logging on)", async () => {
    const seen: string[] = [];
    const record = async (res: Response) => {
      seen.push(
        `${res.status} ${JSON.stringify(Object.fromEntries(res.headers as unknown as Iterable<[string, string]>))} ${await res.text()}`,
      );
    };
    const sub = uniqueSub("sec");
    await debugOrderObject(sub);
    const opened = await post("/v1/checkouts", { token: await token({ sub }) });
    const body = (await opened.clone().json()) as { data: { id: string } };
    await record(opened);
    await record(
      await post(`/v1/checkouts/${body.data.id}/currency`, { cryptoCurrencyCode: "ETH" }),
    );
    await record(await call(`/v1/checkouts/${body.data.id}`));
    await record(await call("/v1/currencies"));
    await simulate(`cc-${sub}`, "paid");
    await deliverAll(`cc-${sub}`);
    await record(await call(`/v1/orders/${sub}`, { headers: bearer }));
    await record(await call("/v1/doctor", { headers: bearer }));
    // The operations routes: the list, the export, the log, test notifications (signed with
    // MERCHANT_WEBHOOK_SECRET, which must still appear nowhere).
    await record(await call(`/v1/orders?invoicePrefix=${sub}`, { headers: bearer }));
    await record(await call(`/v1/orders.csv?invoicePrefix=${sub}`, { headers: bearer }));
    await record(await call("/v1/notifications?limit=5", { headers: bearer }));
    await record(
      await call("/v1/notifications/test", {
        method: "POST",
        headers: { ...bearer, "content-type": "application/json" },
        body: JSON.stringify({ type: "order.paid" }),
      }),
    );
    await record(
      await call("/webhooks/payment", {
        method: "POST",
        headers: { "content-type": "application/json", "x-webhook-signature": "b".repeat(64) },
        body: "{}",
      }),
    );
    // Error paths with a wrong key and debug logging on.
    for (const path of ["/v1/currencies", "/v1/doctor", "/v1/currencies/fiat"]) {
      const res = await app.fetch(
        new Request(`http://127.0.0.1:8787${path}`, {
          headers: { authorization: `Bearer ${env.MERCHANT_API_TOKEN}` },
        }),
        {
          ...debugEnv,
          API_KEY: "wrong-key-but-secret-too", // Another spelling of the sandbox URL: misses the currency cache, so the wrong key is sent.
          UPSTREAM_BASE_URL: SANDBOX_URL.replace("127.0.0.1", "localhost"),
        } as Env,
        ctx,
      );
      await record(res);
    }
    const everything = [...seen, ...logged].join("\n");
    expect(seen.length).toBeGreaterThan(12);
    expect(SECRETS.every((secret) => typeof secret === "string" && secret.length >= 16)).toBe(true);
    // Debug logging really was on, in the worker and in the order's object.
    const debugEvents = logged.filter((l) => l.includes('"level":"debug"'));
    expect(debugEvents.some((l) => l.includes('"event":"checkout.created"'))).toBe(true);
    expect(debugEvents.some((l) => l.includes('"event":"currency.locked"'))).toBe(true);
    for (const secret of [...SECRETS, "wrong-key-but-secret-too"]) {
      expect(everything).not.toContain(secret);
    }
  });
});
