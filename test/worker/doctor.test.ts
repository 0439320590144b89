import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { app } from "../../worker/edge/app.ts";
import { ACCOUNTS_CHECK_TTL_MS, keptAccounts } from "../../worker/edge/doctor/doctor-accounts.ts";
import type { DoctorReport } from "../../worker/edge/doctor/doctor-report.ts";
import type { Env } from "../../worker/edge/env.ts";
import { announceExpectedFault } from "../expected-faults.ts";
import { hmacHex, merchant, testConfig, upstreamRequests, worker } from "./helpers.ts";

const ctx = {
  waitUntil() {},
  passThroughOnException() {},
  props: {},
} as unknown as ExecutionContext;

async function doctorWith(overrides: Partial<Env>) {
  const res = await app.fetch(
    new Request("http://127.0.0.1:8787/v1/doctor", {
      headers: { authorization: `Bearer ${env.MERCHANT_API_TOKEN}` },
    }),
    { ...env, ...overrides } as Env,
    ctx,
  );
  return {
    status: res.status,
    report: ((await res.json()) as { data: DoctorReport }).data,
    text: "",
  };
}

describe("GET /v1/doctor (the gateway module's validate-on-save)", () => {
  it("needs the merchant Bearer token", async () => {
    expect((await worker("/v1/doctor")).status).toBe(401);
    const wrong = await worker("/v1/doctor", { headers: { authorization: "Bearer nope" } });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
  });

  it("passes with a valid key and account", async () => {
    const res = await merchant("/v1/doctor");
    expect(res.status).toBe(200);
    const report = ((await res.json()) as { data: DoctorReport }).data;
    expect(report.ok).toBe(true);
    expect(report.environment).toBe("sandbox");
    // The index's lines: failed notifications, and what it saw of the service's webhooks.
    expect(report.checks.map((c) => c.name)).toEqual([
      "config",
      "api_key",
      "account_id",
      "x402",
      "notifications",
      "webhooks",
    ]);
    // The tests' budget (vitest.config.mts) is reported as the deployment's.
    expect(report.upstreamBudget.maxCallsPerSecond).toBe(200);
    expect(report.upstreamBudget.message).toContain("UPSTREAM_MAX_RPS");
  });

  it("explains a rejected key in terms of the sandbox/production environments", async () => {
    const { status, report } = await doctorWith({ API_KEY: "a-production-key-used-in-sandbox" });
    expect(status).toBe(502);
    const check = report.checks.find((c) => c.name === "api_key")!;
    expect(check.ok).toBe(false);
    expect(check.message).toContain("SANDBOX=true");
    expect(check.message).toContain("production key");
    expect(JSON.stringify(report)).not.toContain("a-production-key-used-in-sandbox");
  });

  it("names an Account ID that does not belong to the key", async () => {
    const { report } = await doctorWith({ ACCOUNT_ID: "11111111-2222-4333-8444-555555555555" });
    const check = report.checks.find((c) => c.name === "account_id")!;
    expect(check.ok).toBe(false);
    expect(check.message).toContain("11111111-2222-4333-8444-555555555555");
  });

  it("warns (without failing) when ALLOWED_ORIGINS is empty: no storefront could embed the widget", async () => {
    const { status, report } = await doctorWith({ ALLOWED_ORIGINS: "" });
    expect(status).toBe(200);
    expect(report.ok).toBe(true);
    const check = report.checks.find((c) => c.name === "allowed_origins")!;
    expect(check).toMatchObject({ ok: true, warning: true });
    expect(check.message).toContain("ALLOWED_ORIGINS is empty");
  });

  it("says when the service cannot be reached", async () => {
    announceExpectedFault("the service is unreachable (closed port)");
    const { report } = await doctorWith({ UPSTREAM_BASE_URL: "http://127.0.0.1:1" });
    expect(report.ok).toBe(false);
    expect(report.checks.find((c) => c.name === "api_key")!.message).toContain("Could not reach");
  });
});

describe("GET /v1/doctor: wallet payments (x402)", () => {
  it("asks the facilitator's supported with the key: exact on Base Sepolia offered, the wallet named", async () => {
    const { status, report } = await doctorWith({
      X402_FACILITATOR_URL: `${env.UPSTREAM_BASE_URL}/x402/`,
    });
    expect(status).toBe(200);
    const line = report.checks.find((c) => c.name === "x402")!;
    expect(line.ok).toBe(true);
    expect(line.message).toContain("Base Sepolia (eip155:84532)");
    expect(line.message).toContain(env.X402_PAY_TO as string);
  });

  it("says x402 is off without X402_PAY_TO (not a failure)", async () => {
    const { report } = await doctorWith({ X402_PAY_TO: undefined });
    const line = report.checks.find((c) => c.name === "x402")!;
    expect(line).toMatchObject({ ok: true });
    expect(line.message).toContain("off");
  });

  it("fails naming the facilitator's URL when it does not answer, and says what to ask the service", async () => {
    announceExpectedFault("the x402 facilitator is unreachable (closed port)");
    const { status, report } = await doctorWith({
      X402_FACILITATOR_URL: "http://127.0.0.1:1/x402",
    });
    expect(status).toBe(502);
    const line = report.checks.find((c) => c.name === "x402")!;
    expect(line.ok).toBe(false);
    expect(line.message).toContain("http://127.0.0.1:1/x402");
    expect(line.message).toContain("X402_FACILITATOR_URL");
  });

  it("fails when the facilitator does not offer the deployment's network (a production network against the sandbox)", async () => {
    const { report } = await doctorWith({
      SANDBOX: "false",
      X402_NETWORK: "eip155:8453",
      X402_FACILITATOR_URL: `${env.UPSTREAM_BASE_URL}/x402?mainnet`,
    });
    const line = report.checks.find((c) => c.name === "x402")!;
    expect(line.ok).toBe(false);
    expect(line.message).toContain("does not offer scheme exact on Base (eip155:8453)");
  });
});

describe("GET /v1/doctor is never cached, and spares the service", () => {
  it("answers Cache-Control: no-store, passing (200) or failing (502)", async () => {
    const passing = await merchant("/v1/doctor");
    expect(passing.status).toBe(200);
    expect(passing.headers.get("cache-control")).toBe("no-store");
    await passing.arrayBuffer();
    const failing = await app.fetch(
      new Request("http://127.0.0.1:8787/v1/doctor", {
        headers: { authorization: `Bearer ${env.MERCHANT_API_TOKEN}` },
      }),
      { ...env, ACCOUNT_ID: crypto.randomUUID() } as Env,
      ctx,
    );
    expect(failing.status).toBe(502);
    expect(failing.headers.get("cache-control")).toBe("no-store");
    await failing.arrayBuffer();
  });

  it(`20 asks within ${ACCOUNTS_CHECK_TTL_MS / 1000} s make one GET /accounts; after that a new one`, async () => {
    // A service account no other test used: nothing is kept for it yet.
    const accountId = crypto.randomUUID();
    const calls = async () => (await upstreamRequests("/accounts", "GET")).length;
    const before = await calls();
    for (let i = 0; i < 20; i++) {
      const { status, report } = await doctorWith({ ACCOUNT_ID: accountId });
      // Each report still says what the one answer means: the key passes, the account is not its.
      expect(status).toBe(502);
      expect(report.checks.find((c) => c.name === "api_key")!.ok).toBe(true);
      expect(report.checks.find((c) => c.name === "account_id")!.ok).toBe(false);
    }
    expect((await calls()) - before).toBe(1);
    // Another API key is checked at once, never answered from this key's result.
    const rejected = await doctorWith({ ACCOUNT_ID: accountId, API_KEY: "another-key" });
    expect(rejected.report.checks.find((c) => c.name === "api_key")!.ok).toBe(false);
    expect((await calls()) - before).toBe(2);
    // Once the period is over (a later clock instead of a wait), the service is asked again.
    const config = { ...testConfig(), ACCOUNT_ID: accountId };
    await keptAccounts(config, Date.now() + ACCOUNTS_CHECK_TTL_MS - 1_000);
    expect((await calls()) - before).toBe(2);
    await keptAccounts(config, Date.now() + ACCOUNTS_CHECK_TTL_MS + 1_000);
    expect((await calls()) - before).toBe(3);
  });
});

/**
 * Calls the worker with `overrides`; what it leaves to `waitUntil` (the batched webhook report)
 * goes to `pending`, for the test to await.
 */
async function callWith(overrides: Partial<Env>, request: Request, pending: Promise<unknown>[]) {
  const collecting = { ...ctx, waitUntil: (p: Promise<unknown>) => pending.push(p) };
  const res = await app.fetch(request, { ...env, ...overrides } as Env, collecting as never);
  await res.arrayBuffer();
  return res.status;
}

const webhook = (body: string, signature: string) =>
  new Request("http://127.0.0.1:8787/webhooks/payment", {
    method: "POST",
    headers: { "content-type": "application/json", "x-webhook-signature": signature },
    body,
  });

/** Another account: its own index, so what other tests sent is not counted. */
const freshAccount = () => ({ ACCOUNT_ID: crypto.randomUUID() });

describe("the doctor catches real mistakes", () => {
  it("fails naming each ALLOWED_ORIGINS entry that is not an exact origin; good entries pass", async () => {
    const { status, report } = await doctorWith({
      ALLOWED_ORIGINS:
        "https://good.example.com,shop.example.com,https://shop.example.com/checkout",
    });
    expect(status).toBe(502);
    expect(report.ok).toBe(false);
    const check = report.checks.find((c) => c.name === "allowed_origins")!;
    expect(check.ok).toBe(false);
    expect(check.message).toContain(
      '"shop.example.com" is not an origin (no scheme): write https://shop.example.com',
    );
    expect(check.message).toContain('"https://shop.example.com/checkout" has a path');
    expect(check.message).not.toContain('"https://good.example.com"');
  });

  it("passes exact origins, with a port or a trailing slash (the worker strips it)", async () => {
    const { report } = await doctorWith({
      ALLOWED_ORIGINS: "https://shop.example.com/, http://localhost:3000",
    });
    expect(report.checks.find((c) => c.name === "allowed_origins")).toBeUndefined();
    expect(report.ok).toBe(true);
  });

  it("warns while notifications are signed with MERCHANT_API_TOKEN (no MERCHANT_WEBHOOK_SECRET)", async () => {
    const { status, report } = await doctorWith({ MERCHANT_WEBHOOK_SECRET: "" });
    expect(status).toBe(200);
    const check = report.checks.find((c) => c.name === "webhook_secret")!;
    expect(check).toMatchObject({ ok: true, warning: true });
    expect(check.message).toContain("MERCHANT_WEBHOOK_SECRET is not set");
    expect(JSON.stringify(report)).not.toContain(env.MERCHANT_API_TOKEN as string);
    // With its own secret: no such line.
    const own = await doctorWith({});
    expect(own.report.checks.find((c) => c.name === "webhook_secret")).toBeUndefined();
  });

  it("without MERCHANT_WEBHOOK_URL, says notifications are recorded, not sent (no failure warning)", async () => {
    const { report } = await doctorWith({ MERCHANT_WEBHOOK_URL: "" });
    const check = report.checks.find((c) => c.name === "notifications")!;
    expect(check.ok).toBe(true);
    expect(check.warning).toBeUndefined();
    expect(check.message).toContain("MERCHANT_WEBHOOK_URL is not set: notifications are recorded");
  });

  it("says no webhook was verified yet, and how to send a test webhook", async () => {
    const { report } = await doctorWith(freshAccount());
    const check = report.checks.find((c) => c.name === "webhooks")!;
    expect(check).toMatchObject({ ok: true, warning: true });
    expect(check.message).toContain("No webhook verified yet");
    expect(check.message).toContain("test-webhooks function");
    expect(check.message).toContain("/webhooks/payment");
  });

  it("counts webhooks refused for a bad signature: the signing key is probably wrong", async () => {
    const account = freshAccount();
    const body = JSON.stringify({ event: "invoice.statusChanged", data: {} });
    const wrong = await hmacHex("not-the-signing-key", body);
    const pending: Promise<unknown>[] = [];
    for (let i = 0; i < 5; i++)
      expect(await callWith(account, webhook(body, wrong), pending)).toBe(401);
    // One batch: the five refusals cost one call to the index.
    expect(pending).toHaveLength(1);
    await Promise.all(pending);
    const { status, report } = await doctorWith(account);
    expect(status).toBe(502);
    const check = report.checks.find((c) => c.name === "webhooks")!;
    expect(check.ok).toBe(false);
    expect(check.message).toContain("5 refused in the last hour");
    expect(check.message).toContain("the Webhook Signing Key is probably wrong");
    expect(check.message).toContain("no webhook verified yet");
    expect(check.message).toContain("test-webhooks function");
  });

  it("remembers the last verified webhook: refusals before it are only a warning", async () => {
    const account = freshAccount();
    const body = JSON.stringify({ event: "test.webhook", data: {} });
    const pending: Promise<unknown>[] = [];
    const forged = await hmacHex("wrong-key-wrong-key", body);
    expect(await callWith(account, webhook(body, forged), pending)).toBe(401);
    await Promise.all(pending);
    // A verified delivery of an event the worker does not handle (the admin's test webhook).
    const signed = await hmacHex(env.WEBHOOK_SIGNING_KEY as string, body);
    expect(await callWith(account, webhook(body, signed), pending)).toBe(202);
    await Promise.all(pending);
    const { status, report } = await doctorWith(account);
    const check = report.checks.find((c) => c.name === "webhooks")!;
    expect(check).toMatchObject({ ok: true, warning: true });
    expect(check.message).toContain("1 refused in the last hour");
    expect(check.message).toContain("the last verified webhook arrived at");
    // Only the account_id line fails (the fresh account is not the key's).
    expect(report.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(["account_id"]);
    expect(status).toBe(502);
  });
});
