/**
 * TEMPORARY (deleted with valibot): the worker's zod/mini schemas against the valibot schemas
 * the worker ran before them (`valibot-current/`, copied verbatim), over the generators of
 * `schemas-valibot.test.ts`: the same value, or the same problems as every caller reads them
 * (path, message, code, unknown keys and the words the routes answer with, `detail`).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../worker/core/config/config.ts";
import type { CoreEnv } from "../../worker/core/config/core-env.ts";
import { checkoutClaimsSchema } from "../../worker/edge/token/claims.ts";
import * as webhook from "../../worker/edge/webhooks/payload.ts";
import * as ops from "../../worker/lib/api/merchant-ops.ts";
import * as requests from "../../worker/lib/api/schemas/requests.ts";
import { JsonNumber, parseExactJson } from "../../worker/lib/money/exact-json.ts";
import { check, type Schema } from "../../worker/lib/schema.ts";
import * as facilitator from "../../worker/service/facilitator.ts";
import * as service from "../../worker/service/schemas.ts";
import * as oldClaims from "./valibot-current/claims.ts";
import * as oldConfig from "./valibot-current/config.ts";
import * as oldFacilitator from "./valibot-current/facilitator.ts";
import * as oldOps from "./valibot-current/merchant-ops.ts";
import * as oldWebhook from "./valibot-current/payload.ts";
import * as oldRequests from "./valibot-current/requests.ts";
import { type Schema as OldSchema, check as oldCheck } from "./valibot-current/schema.ts";
import * as oldService from "./valibot-current/service-schemas.ts";

type Json = Record<string, unknown>;

function zodVerdict(schema: OldSchema, input: unknown, seen?: number) {
  const parsed = oldCheck(schema, input);
  if (parsed.success) return { data: parsed.data };
  return { issues: parsed.issues.slice(0, seen) };
}

function ownVerdict(schema: Schema, input: unknown, seen?: number) {
  const parsed = check(schema, input);
  if (parsed.success) return { data: parsed.data };
  return { issues: parsed.issues.slice(0, seen) };
}

/**
 * Known, unobservable differences: valibot's object and record guards were custom checks (code
 * `other`; a nested one's detail "is not valid"), zod's objects and records say `invalid_type`
 * ("must be a JSON object"). No caller reads the code of such an issue (the configuration's
 * input is always an object) nor the detail of a nested object (request bodies are flat).
 */
function same(own: ReturnType<typeof ownVerdict>, old: ReturnType<typeof zodVerdict>) {
  if (!own.issues || !old.issues) return expect(own).toEqual(old);
  const mended = own.issues.map((issue, i) => {
    const before = old.issues?.[i];
    const guard =
      (before?.code === "other" || before?.code === issue.code) &&
      issue.code === "invalid_type" &&
      (before.detail === issue.detail ||
        (issue.detail === "must be a JSON object" && before.detail === "is not valid"));
    return guard ? { ...issue, code: before.code, detail: before.detail } : issue;
  });
  return expect({ issues: mended }).toEqual(old);
}

/** Values of every JSON kind, and the near-misses a string field meets. */
const anyValue = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom("", " ", " x ", "BTC", "USD", "1", "10.5", "-1", "null", "x".repeat(300)),
  fc.integer().map((n) => new JsonNumber(String(n))),
  fc.constantFrom(new JsonNumber("1.5"), new JsonNumber("1e400"), new JsonNumber("-0")),
  // Money's edges: exponents, more digits than a double holds, negatives, a huge exponent.
  fc.constantFrom(
    new JsonNumber("1E2"),
    new JsonNumber("2.5e-7"),
    new JsonNumber("123456789012345678901234567890.123456789"),
    new JsonNumber("0.30000000000000004"),
    new JsonNumber("-12.50"),
    new JsonNumber("1e999999999"),
  ),
  fc.integer(),
  fc.constantFrom(null, true, false, 0, 1.5, [], {}, ["a"], { a: 1 }),
  // Keys an object's prototype has: `parseExactJson` keeps `"__proto__"` as an own key.
  fc.constantFrom(
    parseExactJson('{"__proto__": {"status": "paid"}, "id": "x"}'),
    parseExactJson('{"constructor": {"prototype": 1}, "toString": "x", "hasOwnProperty": 1}'),
  ),
);

/**
 * The sample, with each field kept, dropped, replaced by `anyValue` or a near-miss of its own
 * value (padded, doubled, cut, upper-cased), and perhaps unknown fields added; or any value.
 */
function around(
  sample: Json,
  extra: readonly string[] = ["extra", "Limit", "__proto__", "constructor"],
) {
  const near = (value: unknown) =>
    typeof value === "string"
      ? fc.constantFrom(
          ` ${value} `,
          value + value,
          value.slice(1),
          value.toUpperCase(),
          value.toLowerCase(),
          `${value}\n`,
          `${value}!`,
        )
      : anyValue;
  const field = (value: unknown) =>
    fc.oneof(
      { weight: 4, arbitrary: fc.constant({ keep: value }) },
      { weight: 1, arbitrary: fc.constant({ drop: true }) },
      { weight: 1, arbitrary: anyValue.map((v) => ({ keep: v })) },
      { weight: 2, arbitrary: near(value).map((v) => ({ keep: v })) },
    );
  const fields = Object.fromEntries(Object.entries(sample).map(([k, v]) => [k, field(v)]));
  const built = fc
    .tuple(
      fc.record(fields),
      fc.subarray([...extra]),
      fc.array(fc.string({ maxLength: 4 }), { maxLength: 2 }),
    )
    .map(([chosen, extras, more]) => {
      const out: Json = {};
      for (const [key, choice] of Object.entries(chosen as Record<string, { keep?: unknown }>)) {
        if ("keep" in choice) out[key] = choice.keep;
      }
      // Defined, not assigned: `__proto__` becomes an own key, as JSON parsing makes it.
      for (const key of [...extras, ...more]) {
        Object.defineProperty(out, key, { value: "1", enumerable: true, writable: true });
      }
      return out;
    });
  return fc.oneof({ weight: 9, arbitrary: built }, { weight: 1, arbitrary: anyValue });
}

function agree(
  old: OldSchema,
  own: Schema,
  inputs: fc.Arbitrary<unknown>,
  { numRuns = 800, seen = undefined as number | undefined } = {},
) {
  fc.assert(
    fc.property(inputs, (input) => {
      same(ownVerdict(own, input, seen), zodVerdict(old, input, seen));
    }),
    { numRuns },
  );
}

describe("request bodies (readJson)", () => {
  const cases: [string, OldSchema, Schema, Json][] = [
    ["openCheckoutBody", oldRequests.openCheckoutBody, requests.openCheckoutBody, { token: "t" }],
    [
      "lockCurrencyBody",
      oldRequests.lockCurrencyBody,
      requests.lockCurrencyBody,
      { cryptoCurrencyCode: "USDT_TRC20" },
    ],
    [
      "refundAddressBody",
      oldRequests.refundAddressBody,
      requests.refundAddressBody,
      { cryptoCurrencyCode: "BTC", address: " bc1qxyz " },
    ],
    [
      "openDepositBody",
      oldRequests.openDepositBody,
      requests.openDepositBody,
      { token: "t", cryptoCurrencyCode: "ETH" },
    ],
    ["refundOrderBody", oldRequests.refundOrderBody, requests.refundOrderBody, { amount: "15" }],
    [
      "payoutQuoteBody",
      oldRequests.payoutQuoteBody,
      requests.payoutQuoteBody,
      { orderId: "po-1", cryptoCurrencyCode: "TRX", address: "T9yD", amount: "25.50" },
    ],
    [
      "testNotificationsBody",
      oldOps.testNotificationsBody,
      ops.testNotificationsBody,
      { type: "order.paid" },
    ],
  ];
  it.each(cases)("%s: same values and issues", (_name, old, own, sample) => {
    agree(old, own, around(sample), { seen: 1 });
  });

  it("an array body and unknown fields", () => {
    for (const input of [[], null, { type: "nope", zeta: 1, alpha: 2 }, { zeta: 1, alpha: 2 }]) {
      same(
        ownVerdict(ops.testNotificationsBody, input),
        zodVerdict(oldOps.testNotificationsBody, input),
      );
      same(
        ownVerdict(requests.payoutQuoteBody, input),
        zodVerdict(oldRequests.payoutQuoteBody, input),
      );
    }
  });
});

describe("merchant operations queries", () => {
  const filters = {
    state: "paid,unpaid",
    createdFrom: "2026-01-31T00:00:00Z",
    createdTo: "2026-02-01T10:00:00+05:30",
    invoicePrefix: "INV-1",
    currency: "USD",
    cryptoCurrencyCode: "USDT_TRC20",
  };
  it.each([
    [
      "ordersListQuery",
      oldOps.ordersListQuery,
      ops.ordersListQuery,
      { ...filters, limit: "50", cursor: "abc_-1" },
    ],
    ["ordersCsvQuery", oldOps.ordersCsvQuery, ops.ordersCsvQuery, filters],
    [
      "notificationsListQuery",
      oldOps.notificationsListQuery,
      ops.notificationsListQuery,
      { status: "failed", limit: "100", cursor: "abc", invoiceNumber: "1001" },
    ],
  ] as [string, OldSchema, Schema, Json][])(
    "%s: same values and issues",
    (_n, old, own, sample) => {
      agree(old, own, around(sample, ["limit", "cursor", "status", "toString", "__proto__"]), {
        seen: 1,
      });
    },
  );
});

describe("checkout token claims", () => {
  const sample = {
    sub: "1001",
    amount: "49.90",
    currency: "USD",
    exp: 1_900_000_000,
    iat: 1_899_990_000,
    description: "Order",
    customerId: "c-1",
    returnUrl: "https://shop.example/back",
    successUrl: "HTTPS://Shop.example/a b",
    failedUrl: "http://localhost:5173/failed",
    mode: "invoice",
    cryptoCurrencyCode: "BTC",
  };
  it.each([true, false])("sandbox %s: same values and issues", (sandbox) => {
    agree(oldClaims.checkoutClaimsSchema(sandbox), checkoutClaimsSchema(sandbox), around(sample), {
      seen: 1,
    });
  });
});

describe("webhook envelope and references", () => {
  const data = { id: "inv_1", orderId: "cc-1001", customPayload: "p", status: "paid" };
  it.each([
    [
      "webhookEnvelope",
      oldWebhook.webhookEnvelope,
      webhook.webhookEnvelope,
      { event: "invoice.statusChanged", data, timestamp: "2026-01-31T00:00:00Z" },
    ],
    ["objectRef", oldWebhook.objectRef, webhook.objectRef, data],
    ["depositRef", oldWebhook.depositRef, webhook.depositRef, data],
    ["invoiceRef", oldWebhook.invoiceRef, webhook.invoiceRef, data],
  ] as [string, OldSchema, Schema, Json][])(
    "%s: same values and issues",
    (_n, old, own, sample) => {
      agree(old, own, around(sample), { seen: 1 });
    },
  );

  it("a record's own __proto__ key is dropped, as zod's record dropped it", () => {
    const body = parseExactJson(
      '{"event": "invoice.statusChanged", "timestamp": "1", "data": {"__proto__": {"status": "paid"}, "id": "inv_1"}}',
    );
    const parsed = ownVerdict(webhook.webhookEnvelope, body);
    same(parsed, zodVerdict(oldWebhook.webhookEnvelope, body));
    const data = (parsed.data as { data: Json }).data;
    expect(Object.keys(data)).toEqual(["id"]);
    expect(Object.getPrototypeOf(Object.assign({}, data))).toBe(Object.prototype);
    const error = parseExactJson('{"code": "x", "extension": {"__proto__": {"a": 1}, "b": 2}}');
    same(ownVerdict(service.errorBodySchema, error), zodVerdict(oldService.errorBodySchema, error));
  });
});

describe("the service's answers", () => {
  const settlement = {
    amountPaid: 10,
    commissionAmount: 0.1,
    networkFeeAmount: null,
    networkFeeCurrencyCode: "TRX",
    netAmount: 9.9,
    txHash: "0xabc",
    completedAt: "2026-01-31T00:00:00Z",
  };
  const invoice = {
    id: "inv_1",
    accountId: "acc",
    orderId: "cc-1001",
    amount: 49.9,
    fiatCurrencyCode: "USD",
    items: [{ name: "Tea", quantity: 2, cost: 24.95 }],
    status: "paid",
    cryptoCurrencyCode: "USDT_TRC20",
    cryptoAmountExpected: 49.9,
    cryptoAmountReceived: 49.9,
    address: "T9yD",
    settlement,
    expiresAt: "2026-01-31T01:00:00Z",
    createdAt: "2026-01-31T00:00:00Z",
    paymentPageUrl: "https://pay.example/inv_1",
    number: "1001",
  };
  const deposit = {
    id: "dep_1",
    orderId: "cc-top-1",
    cryptoCurrencyCode: "BTC",
    status: "completed",
    minimumAmount: 0.0001,
    address: "bc1q",
    createdAt: "2026-01-31T00:00:00Z",
    settlement,
  };
  const withdrawal = {
    id: "wd_1",
    orderId: "po-1",
    cryptoCurrencyCode: "TRX",
    address: "T9yD",
    amount: 25.5,
    status: "completed",
    feeAmount: 1,
    createdAt: "2026-01-31T00:00:00Z",
    quoteId: "q1",
  };
  const quote = {
    quoteId: "q1",
    orderId: "po-1",
    cryptoCurrencyCode: "TRX",
    address: "T9yD",
    amount: 25.5,
    autoConvert: { fromAssetCode: "USDT", toAssetCode: "TRX", fromAmount: 1, toAmount: 2 },
    totalDeduction: 26.5,
    fee: { feeNative: 1, feeCurrency: "TRX", feeInCryptoCurrencyCode: 1, feeUsd: null },
    expiresAt: "2026-01-31T00:10:00Z",
  };
  const crypto = {
    code: "BTC",
    name: "Bitcoin",
    network: "bitcoin",
    decimalPlaces: 8,
    minDepositAmount: 0.0001,
    minWithdrawalAmount: 0.001,
    depositCommission: 0,
    depositNetworkFee: { amount: 0.00001, quotedAt: null },
  };
  const page = (item: Json) => ({ data: [item], total: 1, page: 1, limit: 50, hasMore: false });
  /** As the transport reads an answer: exact numbers. */
  const wire = (inputs: fc.Arbitrary<unknown>) =>
    inputs.map((input) => {
      try {
        return parseExactJson(
          JSON.stringify(input, (_k, v) => (v instanceof JsonNumber ? Number(v.source) : v)),
        );
      } catch {
        return input;
      }
    });
  it.each([
    ["invoiceSchema", oldService.invoiceSchema, service.invoiceSchema, invoice],
    [
      "lockedInvoiceSchema",
      oldService.lockedInvoiceSchema,
      service.lockedInvoiceSchema,
      { ...invoice, address: null },
    ],
    ["depositSchema", oldService.depositSchema, service.depositSchema, deposit],
    ["withdrawalSchema", oldService.withdrawalSchema, service.withdrawalSchema, withdrawal],
    [
      "withdrawalQuoteSchema",
      oldService.withdrawalQuoteSchema,
      service.withdrawalQuoteSchema,
      quote,
    ],
    ["cryptoCurrencySchema", oldService.cryptoCurrencySchema, service.cryptoCurrencySchema, crypto],
    [
      "fiatCurrencySchema",
      oldService.fiatCurrencySchema,
      service.fiatCurrencySchema,
      { code: "USD", name: "US Dollar", decimalPlaces: 2, minInvoiceAmount: 1 },
    ],
    ["accountSchema", oldService.accountSchema, service.accountSchema, { id: "acc", name: null }],
    [
      "errorBodySchema",
      oldService.errorBodySchema,
      service.errorBodySchema,
      { code: "x", message: "m", extension: { msBeforeNext: 10 } },
    ],
    ["invoicePageSchema", oldService.invoicePageSchema, service.invoicePageSchema, page(invoice)],
    ["depositPageSchema", oldService.depositPageSchema, service.depositPageSchema, page(deposit)],
    [
      "withdrawalPageSchema",
      oldService.withdrawalPageSchema,
      service.withdrawalPageSchema,
      page(withdrawal),
    ],
    [
      "envelope",
      oldService.envelope(oldService.accountSchema),
      service.envelope(service.accountSchema),
      { data: { id: "a", name: "n", createdAt: null } },
    ],
  ] as [string, OldSchema, Schema, Json][])(
    "%s: same values and issues",
    (_n, old, own, sample) => {
      const exact = parseExactJson(JSON.stringify(sample)) as Json;
      same(ownVerdict(own, exact), zodVerdict(old, exact));
      agree(old, own, wire(around(exact)), { numRuns: 500, seen: 3 });
      agree(old, own, around(exact), { numRuns: 500, seen: 3 });
    },
  );

  /** The sample with the record at `key` (the first element, for an array) perturbed. */
  const nested = (sample: Json, key: string, inner: Json) =>
    around(inner).map((value) => ({
      ...sample,
      [key]: Array.isArray(sample[key]) ? [value] : value,
    }));
  it.each([
    ["invoice.settlement", oldService.invoiceSchema, service.invoiceSchema, invoice, "settlement"],
    ["invoice.items[0]", oldService.invoiceSchema, service.invoiceSchema, invoice, "items"],
    ["deposit.settlement", oldService.depositSchema, service.depositSchema, deposit, "settlement"],
    ["quote.fee", oldService.withdrawalQuoteSchema, service.withdrawalQuoteSchema, quote, "fee"],
    [
      "quote.autoConvert",
      oldService.withdrawalQuoteSchema,
      service.withdrawalQuoteSchema,
      quote,
      "autoConvert",
    ],
    [
      "crypto.depositNetworkFee",
      oldService.cryptoCurrencySchema,
      service.cryptoCurrencySchema,
      crypto,
      "depositNetworkFee",
    ],
    [
      "page.data[0]",
      oldService.invoicePageSchema,
      service.invoicePageSchema,
      page(invoice),
      "data",
    ],
  ] as [string, OldSchema, Schema, Json, string][])(
    "%s (a nested record's fields): same values and issues",
    (_n, old, own, sample, key) => {
      const exact = parseExactJson(JSON.stringify(sample)) as Json;
      const inner = (Array.isArray(exact[key]) ? (exact[key] as Json[])[0] : exact[key]) as Json;
      agree(old, own, wire(nested(exact, key, inner)), { numRuns: 300, seen: 3 });
      agree(old, own, nested(exact, key, inner), { numRuns: 300, seen: 3 });
    },
  );
});

describe("the x402 facilitator's answers", () => {
  const settlement = {
    id: "s1",
    status: "confirmed",
    network: "eip155:84532",
    asset: "0xusdc",
    amount: "1000",
    payer: "0xpayer",
    payTo: "0xpayto",
    transaction: "0xtx",
    errorReason: null,
    createdAt: "2026-01-31T00:00:00Z",
    confirmedAt: "2026-01-31T00:00:01Z",
  };
  it.each([
    ["settlementSchema", oldFacilitator.settlementSchema, facilitator.settlementSchema, settlement],
    [
      "verifySchema",
      oldFacilitator.verifySchema,
      facilitator.verifySchema,
      { isValid: false, invalidReason: "r", invalidMessage: "m", payer: "0xp" },
    ],
    [
      "settleSchema",
      oldFacilitator.settleSchema,
      facilitator.settleSchema,
      { success: true, payer: "0xp", transaction: "0xtx", network: "eip155:84532" },
    ],
    [
      "supportedSchema",
      oldFacilitator.supportedSchema,
      facilitator.supportedSchema,
      {
        kinds: [{ x402Version: 2, scheme: "exact", network: "eip155:84532", extra: { a: 1 } }],
        extensions: ["x"],
        signers: { "eip155:*": ["0xs"] },
      },
    ],
    [
      "settlementPage",
      oldFacilitator.settlementPage,
      facilitator.settlementPage,
      { data: [settlement], hasMore: true },
    ],
    [
      "envelope(settlement)",
      oldService.envelope(oldFacilitator.settlementSchema),
      service.envelope(facilitator.settlementSchema),
      { data: settlement },
    ],
  ] as [string, OldSchema, Schema, Json][])(
    "%s: same values and issues",
    (_n, old, own, sample) => {
      same(ownVerdict(own, sample), zodVerdict(old, sample));
      // Known differences: valibot's record took any object (an array, a JsonNumber) and judged
      // its entries but `constructor`/`prototype`/`__proto__`; zod's takes a plain object only
      // (`signers: 5` is refused at `signers`) and judges every entry but `__proto__`.
      const plain = (value: unknown) =>
        typeof value !== "object" ||
        value === null ||
        (!Array.isArray(value) &&
          Object.getPrototypeOf(value) === Object.prototype &&
          !Object.hasOwn(value, "constructor") &&
          !Object.hasOwn(value, "prototype"));
      const comparable = (input: unknown) => {
        const body = input as { signers?: unknown; kinds?: { extra?: unknown }[] };
        if (typeof body !== "object" || body === null) return true;
        const kinds = Array.isArray(body.kinds) ? body.kinds : [];
        return plain(body.signers) && kinds.every((kind) => plain(kind?.extra));
      };
      agree(old, own, around(sample).filter(comparable), { numRuns: 800 });
    },
  );
});

describe("the configuration (parseConfig)", () => {
  const valid: Record<string, string> = {
    DISPLAY_NAME: " Shop ",
    API_KEY: "key",
    ACCOUNT_ID: "00000000-0000-4000-8000-000000000001",
    WEBHOOK_SIGNING_KEY: "whsec",
    SANDBOX: "true",
    ORDER_ID_PREFIX: "cc_1",
    DEBUG_LOG: "0",
    CHECKOUT_SIGNING_SECRET: "s".repeat(16),
    MERCHANT_API_TOKEN: "t".repeat(16),
    MERCHANT_WEBHOOK_SECRET: "w".repeat(16),
    MERCHANT_WEBHOOK_URL: "https://shop.example/hooks/",
    ALLOWED_ORIGINS: "https://shop.example/, http://localhost:5173",
    PUBLIC_BASE_URL: " https://pay.example// ",
    PAYMENT_MODE: "hosted",
    PAYMENT_TOLERANCE_PERCENT: "0.5",
    UPSTREAM_MAX_RPS: "20",
    UPSTREAM_BASE_URL: "http://127.0.0.1:8788/",
    X402_PAY_TO: " 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed ",
    X402_NETWORK: "eip155:84532",
    X402_FACILITATOR_URL: "https://api.example/x402/",
  };
  const near = (value: string) =>
    fc.constantFrom(
      value,
      "",
      ` ${value} `,
      value.slice(3),
      `${value}x`,
      "http://shop.example",
      "http://localhost:1",
      "https://a b",
      "yes",
      "1",
      "100.00001",
      "0",
      "10000",
      "a=b",
      "x".repeat(17),
      "HTTPS://X.example\t/",
      "ftp://x",
      "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed",
      "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD",
      "0x0000000000000000000000000000000000000000",
      "0xAbC",
      "eip155:8453",
      " eip155:84532 ",
      "eip155:1",
    );
  const envs = fc
    .record(
      Object.fromEntries(
        Object.entries(valid).map(([k, v]) => [k, fc.option(near(v), { nil: undefined })]),
      ),
    )
    .map((env) => env as unknown as CoreEnv);

  it("same config or the same problems, in order", () => {
    fc.assert(
      fc.property(envs, (env) => {
        // A fresh object each: parseConfig caches by identity.
        expect(parseConfig({ ...env })).toEqual(oldConfig.parseConfig({ ...env }));
      }),
      { numRuns: 3000 },
    );
  });

  it("no problem repeats a secret's value, whatever is wrong with it", () => {
    const secrets = [
      "API_KEY",
      "WEBHOOK_SIGNING_KEY",
      "CHECKOUT_SIGNING_SECRET",
      "MERCHANT_API_TOKEN",
      "MERCHANT_WEBHOOK_SECRET",
    ];
    // Short, outside the Bearer alphabet, padded, URL-like: each a refusal of some rule.
    const badSecret = fc
      .constantFrom("Zq9", "Zq9 secret value!", " Zq9Zq9Zq9Zq9Zq9Zq9 ", "https://Zq9.example/")
      .chain((value) => fc.constantFrom(value, value.repeat(5)));
    fc.assert(
      fc.property(fc.constantFrom(...secrets), badSecret, (name, value) => {
        const env = { ...valid, [name]: value } as unknown as CoreEnv;
        const parsed = parseConfig(env);
        expect(parsed).toEqual(oldConfig.parseConfig({ ...env }));
        if (!parsed.ok) for (const problem of parsed.problems) expect(problem).not.toContain("Zq9");
      }),
      { numRuns: 200 },
    );
  });

  it("the valid sample and the empty configuration", () => {
    const env = valid as unknown as CoreEnv;
    expect(parseConfig({ ...env })).toEqual(oldConfig.parseConfig({ ...env }));
    expect(parseConfig({ ...env })).toMatchObject({ ok: true });
    expect(parseConfig({} as CoreEnv)).toEqual(oldConfig.parseConfig({} as CoreEnv));
  });

  it("defaults are given for absent variables, as zod's transforms gave them", () => {
    const {
      SANDBOX,
      DEBUG_LOG,
      ORDER_ID_PREFIX,
      PAYMENT_MODE,
      PAYMENT_TOLERANCE_PERCENT,
      UPSTREAM_MAX_RPS,
      ALLOWED_ORIGINS,
      X402_NETWORK,
      ...rest
    } = valid;
    const parsed = parseConfig({ ...rest } as unknown as CoreEnv);
    expect(parsed).toEqual(oldConfig.parseConfig({ ...rest } as unknown as CoreEnv));
    expect(parsed.ok && parsed.config).toMatchObject({
      SANDBOX: false,
      DEBUG_LOG: false,
      ORDER_ID_PREFIX: "cc",
      PAYMENT_MODE: "auto",
      PAYMENT_TOLERANCE_PERCENT: "0",
      UPSTREAM_MAX_RPS: 10,
      ALLOWED_ORIGINS: [],
    });
  });
});

describe("random JSON texts (nested records, prototype-named keys)", () => {
  /** Keys the schemas declare, and the ones an object's prototype has. */
  const keys = [
    ...["__proto__", "constructor", "toString", "hasOwnProperty", "id", "orderId", "amount"],
    ...["status", "data", "event", "timestamp", "token", "type", "limit", "sub", "currency"],
    ...["exp", "settlement", "items", "name", "quantity", "cost", "code", "extension"],
    ...["createdAt", "paymentPageUrl", "fiatCurrencyCode", "amountPaid", "netAmount"],
  ];
  const strings = ["", " ", "paid", "USD", "2026-01-31T00:00:00Z", "order.paid", "x".repeat(300)];
  const numbers = ["1", "1.50", "1e2", "-0", "1e400", "12345678901234567890.1", "1900000000"];
  const leaf = fc.oneof(
    fc.constantFrom(...strings).map((text) => JSON.stringify(text)),
    fc.constantFrom(...numbers, "null", "true", "false"),
  );
  const { object: text } = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: "small" }, leaf, tie("object"), tie("array")),
    object: fc
      .uniqueArray(fc.tuple(fc.constantFrom(...keys), tie("value") as fc.Arbitrary<string>), {
        selector: ([key]) => key,
        maxLength: 8,
      })
      .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`),
    array: fc
      .array(tie("value") as fc.Arbitrary<string>, { maxLength: 3 })
      .map((items) => `[${items.join(",")}]`),
  }));
  it.each([
    ["invoiceSchema", oldService.invoiceSchema, service.invoiceSchema],
    ["settlementSchema", oldService.settlementSchema, service.settlementSchema],
    ["errorBodySchema", oldService.errorBodySchema, service.errorBodySchema],
    ["invoicePageSchema", oldService.invoicePageSchema, service.invoicePageSchema],
    ["webhookEnvelope", oldWebhook.webhookEnvelope, webhook.webhookEnvelope],
    ["invoiceRef", oldWebhook.invoiceRef, webhook.invoiceRef],
    ["claims", oldClaims.checkoutClaimsSchema(false), checkoutClaimsSchema(false)],
    ["refundOrderBody", oldRequests.refundOrderBody, requests.refundOrderBody],
    ["testNotificationsBody", oldOps.testNotificationsBody, ops.testNotificationsBody],
    ["ordersListQuery", oldOps.ordersListQuery, ops.ordersListQuery],
  ] as [string, OldSchema, Schema][])(
    "%s: same values and issues, read exactly and by JSON.parse",
    (_n, old, own) => {
      fc.assert(
        fc.property(text as fc.Arbitrary<string>, (json) => {
          for (const input of [parseExactJson(json), JSON.parse(json)]) {
            same(ownVerdict(own, input, 1), zodVerdict(old, input, 1));
          }
        }),
        { numRuns: 400 },
      );
    },
  );
});
