import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { app } from "../../worker/app.ts";
import type { Env } from "../../worker/config/env.ts";
import {
  deliver,
  deliverAll,
  merchant,
  openCheckout,
  postJson,
  simulate,
  uniqueSub,
  worker,
} from "./helpers.ts";

const SECRETS = [
  env.API_KEY,
  env.WEBHOOK_SIGNING_KEY,
  env.CHECKOUT_SIGNING_SECRET,
  env.MERCHANT_API_TOKEN,
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
    const debugEnv = { ...env, DEBUG_LOG: "true" } as Env;
    const seen: string[] = [];
    const record = async (res: Response) => {
      seen.push(
        `${res.status} ${JSON.stringify(Object.fromEntries(res.headers as unknown as Iterable<[string, string]>))} ${await res.text()}`,
      );
    };
    const sub = uniqueSub("sec");
    const { body } = await openCheckout({ sub });
    seen.push(JSON.stringify(body));
    await record(
      await postJson(`/v1/checkouts/${body.data.id}/currency`, { cryptoCurrencyCode: "ETH" }),
    );
    await record(await worker(`/v1/checkouts/${body.data.id}`));
    await record(await worker("/v1/currencies"));
    await simulate(`cc-${sub}`, "paid");
    await deliverAll(`cc-${sub}`);
    await record(await merchant(`/v1/orders/${sub}`));
    await record(await merchant("/v1/doctor"));
    await record(await deliver({ body: "{}", signature: "b".repeat(64) }));
    // Error paths with a wrong key and debug logging on.
    for (const path of ["/v1/currencies", "/v1/doctor", "/v1/currencies/fiat"]) {
      const res = await app.fetch(
        new Request(`http://127.0.0.1:8787${path}`, {
          headers: { authorization: `Bearer ${env.MERCHANT_API_TOKEN}` },
        }),
        {
          ...debugEnv,
          API_KEY: "wrong-key-but-secret-too", // Another spelling of the sandbox URL: misses the currency cache, so the wrong key is sent.
          UPSTREAM_BASE_URL: (env.UPSTREAM_BASE_URL as string).replace("127.0.0.1", "localhost"),
        } as Env,
        ctx,
      );
      await record(res);
    }
    const everything = [...seen, ...logged].join("\n");
    expect(seen.length).toBeGreaterThan(8);
    for (const secret of [...SECRETS, "wrong-key-but-secret-too"]) {
      expect(everything).not.toContain(secret);
    }
  });
});
