/**
 * @module service
 * The simulation's side door into the sandbox: the service's truth (invoices and withdrawals
 * of one order, read through admin views that faults never touch), its signed deliveries, its
 * admin moves, fault injection and the merchant inbox.
 */
import { env } from "cloudflare:workers";

export const SANDBOX_URL = env.UPSTREAM_BASE_URL as string;

/** Calls a sandbox admin path; answers status and the parsed body. */
export async function admin<T = unknown>(
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${SANDBOX_URL}${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: { "content-type": "application/json" },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

/** An invoice as the service holds it (amounts as the JSON numbers' exact text). */
export interface ServiceInvoice {
  id: string;
  orderId: string;
  status: string;
  /** The invoice's fiat amount. */
  amount: string;
  cryptoCurrencyCode: string | null;
  cryptoAmountExpected: string | null;
  cryptoAmountReceived: string | null;
  address: string | null;
}

/** A withdrawal as the service holds it. */
export interface ServiceWithdrawal {
  id: string;
  orderId: string;
  status: string;
  cryptoCurrencyCode: string;
  address: string;
  amount: string;
}

export interface Delivery {
  id: string;
  event: string;
  objectId: string;
  orderId: string | null;
  status: string | null;
  body: string;
  signature: string;
}

/** True for `base` itself and `base-…`: one order's attempts, refunds and payouts. */
export const ofOrder = (base: string) => (orderId: string | null) =>
  orderId === base || (orderId?.startsWith(`${base}-`) ?? false);

/**
 * Reads a JSON answer keeping every number's exact text: amounts are compared as decimals,
 * never through a float (`0.1` stays `"0.1"`).
 */
async function exactData<T>(path: string): Promise<T> {
  const res = await fetch(`${SANDBOX_URL}${path}`);
  const text = await res.text();
  const quoted = text.replace(/"(\w+)":(-?\d+(?:\.\d+)?)(?=[,}])/g, '"$1":"$2"');
  return (JSON.parse(quoted) as { data: T }).data;
}

/** Every invoice of one order (all attempts), as the service holds them. */
export async function invoicesOf(base: string): Promise<ServiceInvoice[]> {
  const list = await exactData<ServiceInvoice[]>(
    `/sandbox/invoices?orderIdPrefix=${encodeURIComponent(base)}`,
  );
  return list.filter((i) => ofOrder(base)(i.orderId));
}

/** Every withdrawal of one order (refunds) and of its merchant payouts. */
export async function withdrawalsOf(base: string): Promise<ServiceWithdrawal[]> {
  const list = await exactData<ServiceWithdrawal[]>(
    `/sandbox/withdrawals?orderIdPrefix=${encodeURIComponent(base)}`,
  );
  return list.filter((w) => ofOrder(base)(w.orderId));
}

/** The service's signed deliveries for one order, oldest first. */
export async function deliveriesOf(base: string): Promise<Delivery[]> {
  const { body } = await admin<{ data: Delivery[] }>(
    `/sandbox/webhooks?orderIdPrefix=${encodeURIComponent(base)}`,
  );
  return body.data.filter((d) => ofOrder(base)(d.orderId));
}

/**
 * Arms a fault for the next call to an API path about one order (`scope`: histories run side
 * by side on one sandbox, each faulting only its own calls). Defaults: 5xx is 503, a delay
 * is 150 ms.
 */
export function fault(spec: Record<string, unknown> & { scope: string }) {
  const defaults = spec.mode === "delay" ? { delayMs: 150 } : { status: 503 };
  return admin("/sandbox/faults", { body: { times: 1, ...defaults, ...spec } });
}

/** Removes every fault armed for one order. */
export function clearFaults(scope: string) {
  return admin(`/sandbox/faults?scope=${encodeURIComponent(scope)}`, { method: "DELETE" });
}

/** How long the service's truth may keep moving after the steps: a `delay` fault's hold and more. */
const SETTLE_LIMIT_MS = 10_000;

/**
 * Waits until the service has done the work of every API request about order `base`: a request the
 * worker gave up on (its object was reset while a `delay` fault held it) still takes effect
 * later, as at a real service, and only then is the service's truth final for the history.
 * @example
 * await serviceSettled(world.base); // then reconcile and compare with invoicesOf(base)
 */
export async function serviceSettled(base: string): Promise<void> {
  const until = Date.now() + SETTLE_LIMIT_MS;
  const path = `/sandbox/in-flight?scope=${encodeURIComponent(base)}`;
  while (Date.now() < until) {
    const { body } = await admin<{ data: { requests: number } }>(path);
    if (body.data.requests === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`the sandbox still had work in flight after ${SETTLE_LIMIT_MS} ms`);
}

export interface InboxEntry {
  body: string;
  status: number;
}

/** What the merchant's backend received about one invoice number, parsed. */
export async function inbox(
  invoiceNumber: string,
): Promise<{ id: string; type: string; data: Record<string, unknown> }[]> {
  const contains = encodeURIComponent(`"invoiceNumber":"${invoiceNumber}"`);
  const { body } = await admin<{ data: InboxEntry[] }>(
    `/sandbox/merchant-inbox?contains=${contains}`,
  );
  return body.data.filter((e) => e.status < 300).map((e) => JSON.parse(e.body));
}
