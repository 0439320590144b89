/**
 * The OpenAPI document (`GET /v1/openapi.json`): served to anyone and cacheable, generated from
 * the route table, covering every `/v1` route the app serves, and enforced: `helpers.ts`'s
 * `worker()` checks every answer of every worker test against it, and this file proves that
 * check refuses what the document does not describe.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type {
  CheckoutNotification,
  DoctorReportView,
  NotificationType,
  OrderLedgerView,
} from "../../packages/contract/src/http-api.ts";
import type {
  Notification,
  NotificationType as OutboxNotificationType,
} from "../../worker/core/events/outbox.ts";
import { app } from "../../worker/edge/app.ts";
import type { DoctorReport } from "../../worker/edge/doctor/doctor-report.ts";
import type { Env } from "../../worker/edge/env.ts";
import { openApiDocument, openApiJson } from "../../worker/lib/api/openapi/document.ts";
import type { Same } from "../../worker/lib/api/schemas/common.ts";
import type { OrderLedger } from "../../worker/order/ledger-view.ts";
import { worker } from "./helpers.ts";
import { checkAnswer } from "./openapi-conformance.ts";

// What the routes and the outbox produce fits what is published (compile-time checks).
const fits: [
  OrderLedger extends OrderLedgerView ? true : false,
  DoctorReport extends DoctorReportView ? true : false,
  Same<OutboxNotificationType, NotificationType>,
  Same<Notification, CheckoutNotification>,
] = [true, true, true, true];

type Doc = { openapi: string; paths: Record<string, Record<string, unknown>> };

describe("GET /v1/openapi.json", () => {
  it("serves the generated OpenAPI 3.1 document to anyone, cacheable, without a token", async () => {
    expect(fits).toEqual([true, true, true, true]);
    const res = await worker("/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.headers.get("cache-control")).toBe("public, max-age=3600");
    // The committed build-time document, byte for byte what the route table generates.
    const text = await res.text();
    expect(text).toBe(openApiJson());
    const served = JSON.parse(text) as Doc;
    expect(served).toEqual(openApiDocument());
    expect(served.openapi).toBe("3.1.0");
  });

  it("is served by a worker that is not configured yet, while its routes answer 503", async () => {
    const unconfigured = { ...env, API_KEY: "", DISPLAY_NAME: "" } as unknown as Env;
    const context = { waitUntil() {}, passThroughOnException() {}, props: {} };
    const call = (path: string) =>
      app.fetch(new Request(`http://127.0.0.1:8787${path}`), unconfigured, context as never);
    const spec = await call("/v1/openapi.json");
    expect(spec.status).toBe(200);
    expect(await spec.json()).toEqual(openApiDocument());
    expect((await call("/v1/currencies/fiat")).status).toBe(503);
  });

  it("is read from the static assets; a deployment built without it answers 500 internal saying so", async () => {
    const asked: string[] = [];
    const withoutAsset = {
      ...env,
      ASSETS: {
        async fetch(url: URL) {
          asked.push(new URL(url).pathname);
          return new Response("Not Found", { status: 404 });
        },
      },
    } as unknown as Env;
    const context = { waitUntil() {}, passThroughOnException() {}, props: {} };
    const res = await app.fetch(
      new Request("http://127.0.0.1:8787/v1/openapi.json"),
      withoutAsset,
      context as never,
    );
    expect(asked).toEqual(["/v1/openapi.json"]);
    expect(res.status).toBe(500);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("internal");
    expect(body.error.message).toContain("npm run build:widget");
  });

  it("documents every /v1 route the app serves, and serves every documented one", () => {
    const served = new Set(
      app.routes
        .filter((r) => r.method !== "ALL" && r.path.startsWith("/v1/"))
        .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:(\w+)/g, "{$1}")}`),
    );
    const documented = new Set(
      Object.entries((openApiDocument() as unknown as Doc).paths).flatMap(([path, item]) =>
        Object.keys(item).map((method) => `${method} ${path}`),
      ),
    );
    expect([...served].filter((r) => !documented.has(r))).toEqual([]);
    expect([...documented].filter((r) => !served.has(r))).toEqual([]);
  });
});

describe("what the document says beyond the schemas", () => {
  type Responses = Record<string, { headers?: Record<string, unknown>; content?: unknown }>;
  const responses = (path: string, method: string) =>
    (
      openApiDocument() as unknown as {
        paths: Record<string, Record<string, { responses: Responses }>>;
      }
    ).paths[path]![method]!.responses;

  it("the CSV export's content-disposition and the test events' 409 webhook_url_missing", () => {
    const csv = responses("/v1/orders.csv", "get")["200"]!;
    expect(Object.keys(csv.content as object)).toEqual(["text/csv"]);
    expect(csv.headers?.["content-disposition"]).toMatchObject({
      description: expect.stringContaining('filename="orders.csv"'),
    });
    expect(JSON.stringify(responses("/v1/notifications/test", "post")["409"])).toContain(
      "webhook_url_missing",
    );
  });
});

describe("the conformance check (what every worker test's answers go through)", () => {
  const url = "http://127.0.0.1:8787/v1/currencies/fiat";
  const fiat = { code: "USD", name: "US Dollar", decimalPlaces: 2, minInvoiceAmount: "1.00" };
  const answer = (body: unknown, status = 200) => Response.json(body, { status });

  it("passes a documented answer", async () => {
    await expect(checkAnswer("GET", url, answer({ data: [fiat] }))).resolves.toBeUndefined();
  });

  it.each<[string, Response, RegExp]>([
    [
      "an amount as a JSON number",
      answer({ data: [{ ...fiat, minInvoiceAmount: 1 }] }),
      /minInvoiceAmount/,
    ],
    [
      "an undocumented field",
      answer({ data: [{ ...fiat, secret: "x" }] }),
      /additional properties/,
    ],
    ["a missing field", answer({ data: [{ code: "USD" }] }), /required/],
    ["an undocumented success status", answer({ data: [] }, 201), /status 201 is not documented/],
    ["an error without a code", answer({ error: { message: "x" } }, 500), /code/],
    [
      "another content type",
      new Response("ok", { headers: { "content-type": "text/plain" } }),
      /content type/,
    ],
  ])("refuses %s", async (_what, response, message) => {
    await expect(checkAnswer("GET", url, response)).rejects.toThrow(message);
  });

  it("refuses an answer on a path the document does not have", async () => {
    const res = answer({ data: 1 });
    await expect(checkAnswer("GET", "http://x/v1/nothing-here", res)).rejects.toThrow(
      /not in the document/,
    );
  });
});
