/**
 * Shared helpers of the worker tests: call the worker inside workerd, mint tokens, drive the
 * sandbox's admin API, and deliver the sandbox's signed webhooks to the worker.
 */
import { env, exports } from "cloudflare:workers";
import { expect } from "vitest";
import type { CheckoutSnapshot, PayoutView } from "../../packages/contract/src/http-api.ts";
import type { MintClaims, MintOptions } from "../../packages/server/src/index.ts";
import { signCheckoutToken } from "../../packages/server/src/token/mint.ts";
import { accountKey } from "../../worker/core/account/account-key.ts";
import { type Config, parseConfig } from "../../worker/core/config/config.ts";
import { budgetStub, reconcilerStub } from "../../worker/core/objects/stubs.ts";
import type { Env } from "../../worker/edge/env.ts";
import type { OrderLedger } from "../../worker/order/ledger-view.ts";
import { UpstreamError } from "../../worker/service/errors.ts";
import type { BudgetObject, ReconcilerObject } from "../support/worker-entry.ts";
import { checkAnswer } from "./openapi-conformance.ts";

export const SANDBOX_URL = env.UPSTREAM_BASE_URL as string;
export const STOREFRONT = "http://127.0.0.1:5173";

/**
 * Calls the worker (same isolate, real routing, real Durable Objects). Every answer is checked
 * against the OpenAPI document (`openapi-conformance.ts`): an undocumented answer fails the test.
 */
export async function worker(path: string, init: RequestInit = {}): Promise<Response> {
  const request = new Request(`http://127.0.0.1:8787${path}`, init);
  const response = await exports.default.fetch(request);
  await checkAnswer(request.method, request.url, response);
  return response;
}

/**
 * Lets the deployment's upstream budget forget a 429 a test injected (its pause and halved
 * reconciliation stand until the service's `msBeforeNext`): "that much time passed".
 */
export async function forgetBudget(): Promise<void> {
  await deploymentBudget().forget();
}

/**
 * The tests' deployment's upstream budget (one per service account), with the tests' hooks
 * (`test/support/worker-entry.ts`).
 */
export function deploymentBudget() {
  const stub = budgetStub(env as unknown as Env, testAccountKey());
  return stub as unknown as DurableObjectStub<BudgetObject>;
}

/**
 * The tests' deployment's reconciler (one per service account), with the tests' hooks
 * (`sweepNow`, `tracked`: `test/support/worker-entry.ts`).
 */
export function deploymentReconciler() {
  const stub = reconcilerStub(env as unknown as Env, testAccountKey());
  return stub as unknown as DurableObjectStub<ReconcilerObject>;
}

/** The tests' deployment's configuration (`vitest.config.mts`). */
export function testConfig(): Config {
  const parsed = parseConfig(env as unknown as Env);
  if (!parsed.ok) throw new Error(parsed.problems.join("; "));
  return parsed.config;
}

function testAccountKey(): string {
  return accountKey(testConfig());
}

/** POSTs JSON to the worker, as the widget would from the storefront. */
export function postJson(path: string, body: unknown, headers: Record<string, string> = {}) {
  return worker(path, {
    method: "POST",
    headers: { "content-type": "application/json", origin: STOREFRONT, ...headers },
    body: JSON.stringify(body),
  });
}

let counter = 0;
/** A fresh invoice number per test (tests share one sandbox). */
export function uniqueSub(label = "t"): string {
  counter += 1;
  return `${label}${Date.now().toString(36)}${counter}${Math.random().toString(36).slice(2, 6)}`;
}

/**
 * Signs a checkout token with the test secret, without the package's claim checks: tests
 * send the worker claims it must refuse (a bad `successUrl`, an unknown currency).
 */
export function token(
  claims: Partial<MintClaims> & { sub: string },
  options: MintOptions = {},
): Promise<string> {
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  return signCheckoutToken(
    {
      amount: "49.90",
      currency: "USD",
      ...claims,
      iat: now,
      exp: now + (options.expiresInSeconds ?? 3600),
    },
    env.CHECKOUT_SIGNING_SECRET as string,
  );
}

/** Opens a checkout; returns status and body. */
export async function openCheckout(claims: Partial<MintClaims> & { sub: string }, ip = uniqueIp()) {
  const res = await postJson(
    "/v1/checkouts",
    { token: await token(claims) },
    { "cf-connecting-ip": ip },
  );
  return {
    status: res.status,
    body: (await res.json()) as {
      data: CheckoutSnapshot;
      error?: { code: string; message: string };
    },
  };
}

let ipCounter = 0;
/** A distinct client address, so the rate limit of one test does not hit another. */
export function uniqueIp(): string {
  ipCounter += 1;
  return `10.${Math.floor(Math.random() * 200)}.${ipCounter % 250}.${Math.floor(Math.random() * 250)}`;
}

/** Calls the sandbox (admin or wire API). */
export async function sandbox<T = unknown>(
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${SANDBOX_URL}${path}`, init);
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

/** The sandbox's *Simulate payment*. */
/**
 * Makes the sandbox's fake merchant answer `status` to its next `times` notifications
 * (`times: 0` restores 200).
 */
export function inboxAnswers(status: number, times: number) {
  return sandbox("/sandbox/merchant-inbox/behaviour", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ status, times }),
  });
}

export function simulate(ref: string, action: string, amount?: string) {
  return sandbox<{ data: Record<string, unknown> }>(
    `/sandbox/invoices/${encodeURIComponent(ref)}/simulate`,
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(amount ? { action, amount } : { action }),
    },
  );
}

export interface Delivery {
  id: string;
  event: string;
  orderId: string | null;
  body: string;
  signature: string;
}

/** Signed deliveries the sandbox made for an orderId, oldest first. */
export async function deliveriesFor(orderId: string): Promise<Delivery[]> {
  const { body } = await sandbox<{ data: Delivery[] }>(
    `/sandbox/webhooks?orderId=${encodeURIComponent(orderId)}`,
  );
  return body.data;
}

/** POSTs one delivery to the worker exactly as the service would. */
export function deliver(d: Pick<Delivery, "body" | "signature">) {
  return worker("/webhooks/payment", {
    method: "POST",
    headers: { "content-type": "application/json", "x-webhook-signature": d.signature },
    body: d.body,
  });
}

/** Delivers every sandbox webhook for `orderId` in order; returns the worker's statuses. */
export async function deliverAll(orderId: string): Promise<number[]> {
  const statuses: number[] = [];
  for (const d of await deliveriesFor(orderId)) statuses.push((await deliver(d)).status);
  return statuses;
}

/** Merchant API call with the Bearer token. */
export function merchant(path: string, init: RequestInit = {}) {
  return worker(path, {
    ...init,
    headers: {
      authorization: `Bearer ${env.MERCHANT_API_TOKEN}`,
      "content-type": "application/json",
      ...(init.headers ?? {}),
    },
  });
}

/** The service's own view of an invoice (wire API, with the API key). */
export function upstreamInvoice(orderId: string) {
  return sandbox<{ data: Record<string, unknown> }>(
    `/invoice?accountId=${env.ACCOUNT_ID}&orderId=${encodeURIComponent(orderId)}`,
    { headers: { "x-tenant-api-key": env.API_KEY as string } },
  );
}

/** Upstream requests the sandbox logged for a path (and method), oldest first. */
export async function upstreamRequests(path: string, method?: string) {
  const q = `path=${encodeURIComponent(path)}${method ? `&method=${method}` : ""}`;
  const { body } = await sandbox<{
    data: { method: string; path: string; query: Record<string, string>; status: number }[];
  }>(`/sandbox/requests?${q}`);
  return body.data;
}

/** The merchant's ledger of an order (`GET /v1/orders/:invoiceNumber`, merchant Bearer). */
export async function ledgerOf(invoiceNumber: string): Promise<OrderLedger> {
  const res = await merchant(`/v1/orders/${invoiceNumber}`);
  if (res.status !== 200) throw new Error(`ledger of ${invoiceNumber}: HTTP ${res.status}`);
  return ((await res.json()) as { data: OrderLedger }).data;
}

/** `POST /v1/orders/:invoiceNumber/refund` as the merchant; `body` may ask for an `amount`. */
export async function refundOrder(invoiceNumber: string, body?: Record<string, unknown>) {
  const res = await merchant(`/v1/orders/${invoiceNumber}/refund`, {
    method: "POST",
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return {
    status: res.status,
    body: (await res.json()) as { data: PayoutView; error?: { code: string; message: string } },
  };
}

/** Injects a fault into the sandbox for the next request(s) to a path. */
export function fault(spec: Record<string, unknown>) {
  return sandbox("/sandbox/faults", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(spec),
  });
}

/**
 * The sandbox's unspent faults scoped to `orderId`: a test asserts its own faults were spent,
 * never the sandbox's whole list (another file may have left one it did not need).
 */
export async function faultsLeftFor(orderId: string): Promise<unknown[]> {
  const listed = await sandbox<{ data: { scope?: string }[] }>("/sandbox/faults");
  return listed.body.data.filter((f) => f.scope === orderId);
}

/** HMAC-SHA256 hex, written independently of the worker's own signer (tests check it). */
export async function hmacHex(key: string, message: string): Promise<string> {
  const k = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(key),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", k, new TextEncoder().encode(message));
  return [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The same delivery with another envelope `timestamp`, signed with the service's key, as the
 * service would have sent it at that time (the supersede rule orders deliveries by it).
 */
export async function restamped(d: Delivery, timestamp: string): Promise<Delivery> {
  const body = JSON.stringify({ ...(JSON.parse(d.body) as object), timestamp });
  return { ...d, body, signature: await hmacHex(env.WEBHOOK_SIGNING_KEY as string, body) };
}

/** The fields of a delivery's `data` the worker routes by and reads its announced facts from. */
const ANNOUNCING = ["id", "orderId", "customPayload", "status", "cryptoAmountReceived"];

/**
 * The same delivery (same stamp) whose `data` keeps only its routing and announced facts, signed
 * with the service's key: it fails the GET schema, so the worker cannot apply it as a read and
 * takes the refetch path (a prompt only: read the object, acknowledge what that read covers).
 */
export async function withoutRecord<D extends Pick<Delivery, "body" | "signature">>(
  d: D,
): Promise<D> {
  const envelope = JSON.parse(d.body) as { data: Record<string, unknown> };
  const data = Object.fromEntries(
    ANNOUNCING.filter((k) => k in envelope.data).map((k) => [k, envelope.data[k]]),
  );
  const body = JSON.stringify({ ...envelope, data });
  return { ...d, body, signature: await hmacHex(env.WEBHOOK_SIGNING_KEY as string, body) };
}

/** The envelope `timestamp` of a delivery, as the service wrote it. */
export function stampOf(d: Delivery): string {
  return (JSON.parse(d.body) as { timestamp: string }).timestamp;
}

/**
 * The sandbox account's balance of one currency, as the decimal string the service answered.
 *
 * @example
 * const before = await balance("USDT_TRC20");
 */
export async function balance(code: string): Promise<string> {
  const { body } = await sandbox<{
    data: { cryptoCurrencyCode: string; amount: string | number }[];
  }>("/sandbox/balances");
  return String(body.data.find((b) => b.cryptoCurrencyCode === code)!.amount);
}

/**
 * The `UpstreamError` a call fails with; the test fails when the call succeeds or throws
 * anything else.
 *
 * @example
 * expect((await upstreamFailure(client.getInvoice(q))).kind).toBe("not_found");
 */
export async function upstreamFailure(promise: Promise<unknown>): Promise<UpstreamError> {
  const error = await promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UpstreamError);
  return error as UpstreamError;
}
