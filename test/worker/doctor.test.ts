import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { app } from "../../worker/app.ts";
import type { DoctorReport } from "../../worker/config/doctor-report.ts";
import type { Env } from "../../worker/config/env.ts";
import { merchant, worker } from "./helpers.ts";

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
    expect(report.checks.map((c) => c.name)).toEqual(["config", "api_key", "account_id"]);
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
    const { report } = await doctorWith({ UPSTREAM_BASE_URL: "http://127.0.0.1:1" });
    expect(report.ok).toBe(false);
    expect(report.checks.find((c) => c.name === "api_key")!.message).toContain("Could not reach");
  });
});
