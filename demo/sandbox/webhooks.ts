/**
 * @module webhooks
 * Signed webhook deliveries: the body `{event, data, timestamp}` is serialized once, signed
 * with HMAC-SHA256 (key = UTF-8 bytes of the signing key, lowercase hex, header
 * `x-webhook-signature`) and that exact string is sent, retried on the configured delays until
 * a 2xx, logged, and can be redelivered byte for byte.
 */
import { nowIso, type SandboxState, type WebhookRecord } from "./state.ts";
import { jsonText, WireError } from "./wire.ts";
import { reportWire } from "./wire-observer.ts";

export type WebhookEvent =
  | "invoice.statusChanged"
  | "deposit.statusChanged"
  | "withdrawal.statusChanged";

const DELIVERY_TIMEOUT_MS = 10_000;

/**
 * Members of a webhook's `data` that a GET of the same object does not carry: the status before
 * the change, and a deposit webhook's payment facts (SDK `DepositStatusChangedWebhookData`).
 */
export const WEBHOOK_ONLY_FIELDS: readonly string[] = [
  "previousStatus",
  "depositTransactionHash",
  "actuallyReceivedAmount",
  "actuallyReceivedAmountUsd",
];

/**
 * Lowercase hex HMAC-SHA256 of `body` keyed by the UTF-8 bytes of `key`.
 * @example
 * await hmacHex("whsec_x", '{"event":"invoice.statusChanged"}'); // 64 hex chars
 */
export async function hmacHex(key: string, body: string): Promise<string> {
  const enc = new TextEncoder();
  const k = await crypto.subtle.importKey(
    "raw",
    enc.encode(key),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const sig = new Uint8Array(await crypto.subtle.sign("HMAC", k, enc.encode(body)));
  return Array.from(sig, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** What an emitted webhook is about. */
export interface WebhookSubject {
  event: WebhookEvent;
  objectId: string;
  orderId: string | null;
  /** The object's own webhookUrl, if any; otherwise the tenant default applies. */
  url: string | null;
  /** The object exactly as a GET returns it, plus any webhook-only facts (`WEBHOOK_ONLY_FIELDS`). */
  data: Record<string, unknown>;
  previousStatus: string | null;
}

/**
 * Records a webhook (synchronously, so events keep their order), signs it and queues its
 * delivery. The returned promise settles once the signature is in the record.
 * @example
 * await emitWebhook(state, { event: "invoice.statusChanged", objectId, orderId, url: null,
 *   data: invoiceView(inv), previousStatus: "created" });
 */
export function emitWebhook(state: SandboxState, s: WebhookSubject): Promise<WebhookRecord> {
  const body = jsonText({
    event: s.event,
    data: { ...s.data, previousStatus: s.previousStatus },
    timestamp: nowIso(state),
  });
  const status = typeof s.data.status === "string" ? s.data.status : null;
  reportWire({ kind: "webhook", body });
  return sendSigned(state, { ...s, status, body });
}

/** A webhook ready to sign: its exact body and what the delivery log says about it. */
export interface SignedSubject {
  event: string;
  objectId: string;
  orderId: string | null;
  status: string | null;
  /** The object's own webhookUrl, if any; otherwise the tenant default applies. */
  url: string | null;
  /** The exact body, serialized once: what is signed, sent and redelivered. */
  body: string;
}

/**
 * Records a body (synchronously, so events keep their order), signs it and queues its
 * delivery, in order per object. The body is the caller's: the x402 events (`x402-settle.ts`)
 * carry `{event, data, timestamp}` without the status events' `previousStatus`, and are not
 * the merchant API's SDK wire, so they are not handed to the wire observer.
 * @example
 * await sendSigned(state, { event: "x402.payment.settled", objectId, orderId: null, status: "confirmed", url: null, body });
 */
export function sendSigned(state: SandboxState, s: SignedSubject): Promise<WebhookRecord> {
  const { body } = s;
  const rec = newRecord(s.event, s.objectId, s.orderId, s.status, body);
  rec.url = state.webhookRedirect ?? s.url ?? state.options.webhookUrl;
  state.webhooks.push(rec);
  const signed = hmacHex(state.options.webhookSigningKey, body).then((sig) => {
    rec.signature = sig;
    return rec;
  });
  const url = rec.url;
  if (url !== null) {
    const key = s.objectId;
    const tail = (state.deliveryChains.get(key) ?? Promise.resolve())
      .then(() => signed)
      .then(() => deliver(state, rec, url, 0))
      .catch(() => undefined);
    state.deliveryChains.set(key, tail);
    void tail.then(() => {
      if (state.deliveryChains.get(key) === tail) state.deliveryChains.delete(key);
    });
  }
  return signed;
}

function newRecord(
  event: string,
  objectId: string,
  orderId: string | null,
  status: string | null,
  body: string,
): WebhookRecord {
  const id = `whd_${crypto.randomUUID()}`;
  return {
    id,
    event,
    objectId,
    orderId,
    status,
    url: null,
    body,
    signature: "",
    attempts: [],
    delivered: false,
  };
}

/**
 * One POST of a record's exact body and signature; records the attempt.
 * @example
 * const ok = await attempt(state, rec, "http://127.0.0.1:9000/hook");
 */
export async function attempt(state: SandboxState, rec: WebhookRecord, url: string) {
  const at = nowIso(state);
  try {
    // Over the sandbox's bounded keep-alive pool (see delivery-sender.ts), not `fetch`.
    const status = await state.sender.post(
      url,
      {
        ...state.webhookHeaders,
        "content-type": "application/json",
        "x-webhook-signature": rec.signature,
      },
      rec.body,
      AbortSignal.any([state.scheduler.signal, AbortSignal.timeout(DELIVERY_TIMEOUT_MS)]),
    );
    const ok = status >= 200 && status < 300;
    rec.attempts.push({ at, status });
    if (ok) rec.delivered = true;
    return ok;
  } catch (err) {
    if (state.scheduler.disposed) return false;
    rec.attempts.push({ at, error: err instanceof Error ? err.message : String(err) });
    return false;
  }
}

async function deliver(state: SandboxState, rec: WebhookRecord, url: string, retry: number) {
  if (state.scheduler.disposed) return;
  if (await attempt(state, rec, url)) return;
  const delay = state.options.retryDelaysMs[retry];
  if (delay === undefined) return;
  state.scheduler.later(() => void deliver(state, rec, url, retry + 1), delay);
}

/**
 * Sends a logged delivery again, same raw body and signature (a realistic duplicate), once.
 * @example
 * await redeliver(state, "whd_…", "http://127.0.0.1:9000/hook");
 */
export async function redeliver(state: SandboxState, id: string, url: string | null) {
  const rec = state.webhooks.find((w) => w.id === id);
  if (!rec) throw new WireError(404, "exceptions.sandbox.webhookNotFound", "No such delivery");
  const target = url ?? rec.url;
  if (target === null) {
    throw new WireError(
      409,
      "exceptions.sandbox.noWebhookUrl",
      "The delivery has no URL: give url",
    );
  }
  await attempt(state, rec, target);
  return rec;
}

/**
 * Signs and sends a sample event (the admin panel's test-webhook), awaiting the one attempt.
 * `data` is the whole object the event is about (`sample-invoice.ts` makes the default one).
 * @example
 * await sendTestWebhook(state, { url: "http://127.0.0.1:9000/hook", event: null, data, sample: true });
 */
export async function sendTestWebhook(
  state: SandboxState,
  opts: {
    url: string | null;
    event: string | null;
    data: Record<string, unknown>;
    /** True when `data` is the sandbox's sample, false when the caller gave it. */
    sample: boolean;
  },
) {
  const { data } = opts;
  const event = opts.event ?? "invoice.statusChanged";
  const body = jsonText({ event, data, timestamp: nowIso(state) });
  const objectId = typeof data.id === "string" ? data.id : "test";
  const orderId = typeof data.orderId === "string" ? data.orderId : null;
  const status = typeof data.status === "string" ? data.status : null;
  // The sandbox's own sample is observed like any delivery; data a caller wrote is theirs.
  if (opts.sample) reportWire({ kind: "webhook", body });
  const rec = newRecord(event, objectId, orderId, status, body);
  rec.url = opts.url ?? state.options.webhookUrl;
  rec.signature = await hmacHex(state.options.webhookSigningKey, body);
  state.webhooks.push(rec);
  if (rec.url !== null) await attempt(state, rec, rec.url);
  return rec;
}
