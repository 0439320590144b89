/**
 * The contract test of the service's wire format (`test/contract/wire-schemas.ts`, written from
 * the published SDK):
 * - the node tests check every answer and webhook of their sandboxes against it
 *   (`wire-contract-setup.ts`); here: that the check sees them and catches a difference, and that
 *   the sandbox's list of unpublished error codes names none the service publishes;
 * - the worker's own upstream and webhook schemas accept each answer, and, a property over the
 *   SDK's optional fields, the same answer with any of them omitted or `null`, reading each as
 *   `null` (the worker's invariant), and `null` wherever the SDK types a field nullable.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type * as z from "zod";
import {
  depositRef,
  invoiceRef,
  objectRef,
  webhookEnvelope,
} from "../../worker/edge/webhooks/payload.ts";
import { parseExactJson } from "../../worker/lib/money/exact-json.ts";
import { check, type Schema } from "../../worker/lib/schema.ts";
import {
  accountSchema,
  cryptoCurrencySchema,
  depositSchema,
  fiatCurrencySchema,
  invoiceSchema,
  withdrawalQuoteSchema,
  withdrawalSchema,
} from "../../worker/service/schemas.ts";
import { unpublishedCodes, wireViolations } from "../contract/check-wire.ts";
import * as wire from "../contract/wire-schemas.ts";
import { useSandbox } from "./sandbox-kit.ts";
import { observedCount } from "./wire-contract-setup.ts";

const API_KEY = "sk_contract";
const ACCOUNT = "22222222-2222-4222-8222-222222222222";
const EVM_TO = "0x52908400098527886E0F7030069857D2E4169EE7";
const { sb, api } = useSandbox(API_KEY, ACCOUNT);

type Json = Record<string, unknown>;

/** One field the SDK lets the service leave out (`?:`) or send as null (`| null`). */
interface Loose {
  path: string[];
  /** `?:` in the SDK: may be absent (and then the worker must also take null). */
  omittable: boolean;
}

type Def = { type: string; shape?: Record<string, z.ZodType>; innerType?: z.ZodType };
const defOf = (s: z.ZodType) => (s as unknown as { def: Def }).def;

/** Every optional or nullable field of a wire schema, nested objects included. */
function looseFields(schema: z.ZodType, prefix: string[] = []): Loose[] {
  const out: Loose[] = [];
  for (const [key, field] of Object.entries(defOf(schema).shape ?? {})) {
    let inner = field;
    let omittable = false;
    let nullable = false;
    for (;;) {
      const d = defOf(inner);
      if (d.type === "optional") omittable = true;
      else if (d.type === "nullable") nullable = true;
      else break;
      inner = d.innerType!;
    }
    const path = [...prefix, key];
    if (omittable || nullable) out.push({ path, omittable });
    if (defOf(inner).type === "object") out.push(...looseFields(inner, path));
  }
  return out;
}

function parentOf(root: Json, path: string[]): Json | null {
  let node: unknown = root;
  for (const key of path.slice(0, -1)) {
    node = (node as Json | null)?.[key];
    if (node === null || typeof node !== "object") return null;
  }
  return node as Json;
}

/** A copy of `sample` with each chosen field omitted (when the SDK allows) or set to null. */
function loosened(sample: Json, choices: Array<{ field: Loose; omit: boolean }>): Json {
  const copy = structuredClone(sample);
  for (const { field, omit } of choices) {
    const parent = parentOf(copy, field.path);
    if (!parent) continue;
    const key = field.path.at(-1)!;
    if (omit && field.omittable) delete parent[key];
    else parent[key] = null;
  }
  return copy;
}

/**
 * Checks, for many random choices of the SDK's loose fields, that the worker schema accepts the
 * loosened answer and reads each loosened field it declares as null.
 */
function assertWorkerTakesLooseFields(
  wireSchema: z.ZodType,
  sample: Json,
  workerSchema: Schema,
): void {
  // The sample itself is what the service may send, and the worker takes it.
  expect(wireSchema.safeParse(sample).error).toBeUndefined();
  const fields = looseFields(wireSchema);
  expect(fields.length).toBeGreaterThan(0);
  const choice = fc.record({
    field: fc.constantFrom(...fields),
    omit: fc.boolean(),
  });
  fc.assert(
    fc.property(fc.uniqueArray(choice, { selector: (c) => c.field.path.join(".") }), (choices) => {
      const input = loosened(sample, choices);
      const parsed = check(workerSchema, parseExactJson(JSON.stringify(input)));
      if (!parsed.success) {
        throw new Error(
          `worker refused ${JSON.stringify(choices)}: ${JSON.stringify(parsed.issues)}`,
        );
      }
      for (const { field } of choices) {
        const parent = parentOf(parsed.data as Json, field.path);
        const key = field.path.at(-1)!;
        // Fields the worker does not read are dropped; those it reads come out as null.
        if (parent && key in parent) expect(parent[key], field.path.join(".")).toBeNull();
      }
    }),
    { numRuns: 150 },
  );
}

async function get(path: string): Promise<Json> {
  const r = await api("GET", path);
  expect(r.status, path).toBe(200);
  return r.json.data;
}

function lastHook(objectId: string): Json {
  const hook = sb.sandbox.state.webhooks.findLast((w) => w.objectId === objectId);
  return JSON.parse(hook!.body);
}

function simulate(kind: string, ref: string, body: Json) {
  return fetch(`${sb.url}/sandbox/${kind}/${ref}/simulate`, {
    method: "POST",
    body: JSON.stringify(body),
  });
}

/** A paid invoice with every optional field set, as GET and as its webhook's data. */
async function fullInvoice(): Promise<{ invoice: Json; hook: Json }> {
  const created = await api("POST", "/invoice", {
    accountId: ACCOUNT,
    fiatCurrencyCode: "USD",
    amount: 25,
    orderId: "contract-inv",
    description: "Order 7",
    number: "INV-7",
    customerId: "cust-7",
    customPayload: "cc1:abc",
    webhookUrl: "https://shop.example/hook",
    returnUrl: "https://shop.example/back",
    successUrl: "https://shop.example/thanks",
    failedUrl: "https://shop.example/sorry",
  });
  const id = created.json.data.id;
  await simulate("invoices", id, { action: "paid" });
  return { invoice: await get(`/invoice?accountId=${ACCOUNT}&id=${id}`), hook: lastHook(id) };
}

describe("the sandbox's answers are checked against the SDK's wire format", () => {
  it("observes every API answer and webhook of a test's sandbox", async () => {
    const before = observedCount();
    await api("GET", "/currencies");
    expect(observedCount()).toBe(before + 1);
    await fullInvoice();
    // POST /invoice, GET /invoice, and the processing and paid webhooks.
    expect(observedCount()).toBe(before + 5);
  });

  it("catches null where the SDK omits, a missing required field, and an unlisted code", () => {
    const answer = (path: string, status: number, body: unknown) =>
      ({ kind: "answer", method: "GET", path, status, body: JSON.stringify(body) }) as const;
    const invoice = { id: "i", accountId: "a", amount: 1, fiatCurrencyCode: "USD", items: [] };
    const base = {
      ...invoice,
      status: "created",
      expiresAt: "2030-01-01T00:00:00.000Z",
      createdAt: "2030-01-01T00:00:00.000Z",
      paymentPageUrl: "http://x/pay/i",
    };
    expect(wireViolations([answer("/invoice", 200, { data: base })])).toEqual([]);
    const [nullField] = wireViolations([
      answer("/invoice", 200, { data: { ...base, paidAt: null } }),
    ]);
    expect(nullField).toContain("paidAt");
    const { paymentPageUrl: _, ...noPage } = base;
    expect(wireViolations([answer("/invoice", 200, { data: noPage })])[0]).toContain(
      "paymentPageUrl",
    );
    const [code] = wireViolations([
      answer("/invoice", 404, { code: "exceptions.invoice.gone", message: "x" }),
    ]);
    expect(code).toContain("neither published nor");
    expect(
      wireViolations([{ kind: "webhook", body: '{"event":"invoice.statusChanged"}' }]),
    ).toHaveLength(1);
  });

  it("lists each unpublished code once, and none that the service publishes", () => {
    const codes = unpublishedCodes();
    expect(codes.size).toBeGreaterThan(0);
    expect([...codes].filter((c) => wire.PUBLISHED_ERROR_CODES.has(c))).toEqual([]);
    // The SDK's expired-quote gap is where the worker must not depend on the sandbox's code.
    expect(codes.has("exceptions.withdrawal.quoteExpired")).toBe(true);
  });
});

describe("the worker's schemas take what the service may send (optional fields omitted or null)", () => {
  it("invoices: GET /invoice and the invoice.statusChanged data", async () => {
    const { invoice, hook } = await fullInvoice();
    assertWorkerTakesLooseFields(wire.invoice, invoice, invoiceSchema);
    expect(check(webhookEnvelope, parseExactJson(JSON.stringify(hook))).success).toBe(true);
    assertWorkerTakesLooseFields(wire.invoiceWebhookData, hook.data as Json, invoiceSchema);
    assertWorkerTakesLooseFields(wire.invoiceWebhookData, hook.data as Json, invoiceRef);
  });

  it("deposits: POST /deposit, GET /deposit and the deposit.statusChanged data", async () => {
    const created = await api("POST", "/deposit", {
      accountId: ACCOUNT,
      cryptoCurrencyCode: "USDT_TRC20",
      orderId: "contract-dep",
      customerId: "cust-7",
    });
    expect(created.status).toBe(201);
    const id = created.json.data.id;
    await simulate("deposits", id, { action: "completed", amount: "40" });
    const got = await get(`/deposit?accountId=${ACCOUNT}&id=${id}`);
    const hook = lastHook(id).data as Json;
    expect(hook.actuallyReceivedAmount).toBe(40);
    assertWorkerTakesLooseFields(wire.deposit, got, depositSchema);
    assertWorkerTakesLooseFields(wire.depositWebhookData, hook, depositSchema);
    assertWorkerTakesLooseFields(wire.depositWebhookData, hook, depositRef);
    const createdData = (parseExactJson(created.text) as { data: unknown }).data;
    expect(check(depositSchema, createdData).success).toBe(true);
  });

  it("withdrawals: the quote (with an auto-conversion), the withdrawal and its webhook data", async () => {
    const quote = await api("POST", "/withdrawal/quote", {
      accountId: ACCOUNT,
      cryptoCurrencyCode: "USDC_ERC20",
      address: EVM_TO,
      amount: 25,
      orderId: "contract-wd",
      allowAutoConvert: true,
    });
    expect(quote.json.data.autoConvert).not.toBeNull();
    assertWorkerTakesLooseFields(wire.withdrawalQuote, quote.json.data, withdrawalQuoteSchema);
    const committed = await api("POST", "/withdrawal/commit", {
      quoteId: quote.json.data.quoteId,
      customData: { orderId: "contract-wd", kind: "payout" },
      webhookUrl: "https://shop.example/hook",
    });
    expect(committed.status).toBe(201);
    const id = committed.json.data.id;
    await simulate("withdrawals", id, { action: "processing" });
    const got = await get(`/withdrawal?accountId=${ACCOUNT}&id=${id}`);
    expect(got).toMatchObject({
      convertId: expect.any(String),
      transactionHash: expect.any(String),
    });
    assertWorkerTakesLooseFields(wire.withdrawal, got, withdrawalSchema);
    const hook = lastHook(id).data as Json;
    assertWorkerTakesLooseFields(wire.withdrawalWebhookData, hook, withdrawalSchema);
    assertWorkerTakesLooseFields(wire.withdrawalWebhookData, hook, objectRef);
  });

  it("catalogue: a token and a native coin, fiat currencies and accounts", async () => {
    const list = (await get("/currencies")) as unknown as Json[];
    for (const code of ["USDT_TRC20", "BTC"]) {
      const entry = list.find((c) => c.code === code)!;
      assertWorkerTakesLooseFields(wire.merchantCurrency, entry, cryptoCurrencySchema);
    }
    const fiat = (await get("/currencies/fiat")) as unknown as Json[];
    for (const f of fiat)
      expect(check(fiatCurrencySchema, parseExactJson(JSON.stringify(f))).success).toBe(true);
    const accounts = (await get("/accounts")) as unknown as Json[];
    expect(check(accountSchema, parseExactJson(JSON.stringify(accounts[0]))).success).toBe(true);
  });
});
