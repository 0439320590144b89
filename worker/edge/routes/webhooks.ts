/**
 * @module
 * `POST /webhooks/payment`: the service's signed deliveries.
 *
 * Order of checks (each refusal stores nothing): size (read with a byte cap) → signature over
 * the raw bytes → JSON → event kind → envelope schema → routing. The kind comes before the
 * schema: a verified event we do not handle is acknowledged (2xx) whatever its shape, or the
 * service would retry it forever. A verified delivery is a read: its `data` is the whole
 * object as the service held it at the signed `timestamp` (`edge/webhooks/record.ts`), and the
 * object admits it through the monotonic facts with no upstream call. A `data` that fails the
 * schema is a prompt only: the object refetches and answers 503 when it cannot or when what it
 * read is older than what the delivery announced, so the service retries
 * (`core/converge/delivery.ts`).
 */

import { tallyRefused, tallyVerified } from "../../core/account/webhook-tally.ts";
import { errorResponse } from "../../lib/api-error.ts";
import { parseExactJson } from "../../lib/money/exact-json.ts";
import { check } from "../../lib/schema.ts";
import { orderStub } from "../../order/order-stub.ts";
import { readCapped } from "../http/read-capped.ts";
import { Hono } from "../http/router.ts";
import type { AppEnv } from "../http/types.ts";
import { appliedAnswer, missingFacts, notOurs } from "../webhooks/answers.ts";
import { handleDepositWebhook } from "../webhooks/deposit-webhook.ts";
import { eventKind, HANDLED_EVENTS, invoiceRef, webhookEnvelope } from "../webhooks/payload.ts";
import { invoiceRecord, signedDelivery } from "../webhooks/record.ts";
import { checkoutCandidates } from "../webhooks/route-invoice.ts";
import { deliverySentAt } from "../webhooks/sent-at.ts";
import { checkWebhookSignature, deliveryKey } from "../webhooks/signature.ts";
import { handleWithdrawalWebhook } from "../webhooks/withdrawal-webhook.ts";
import { handleX402Webhook, X402_EVENTS } from "../webhooks/x402-webhook.ts";

/** Largest webhook body accepted. */
export const MAX_WEBHOOK_BODY = 64 * 1024;

export const webhookRoutes = new Hono<AppEnv>();

const MESSAGES = {
  signature_missing: "The x-webhook-signature header is missing.",
  signature_malformed: "The x-webhook-signature header is not a hex HMAC-SHA256.",
  signature_invalid: "The webhook signature does not match.",
} as const;

webhookRoutes.post("/payment", async (c) => {
  const { config, log } = c.var;
  const declared = Number(c.req.header("content-length") ?? "0");
  if (declared > MAX_WEBHOOK_BODY)
    return errorResponse(413, "payload_too_large", "Webhook body too large.");
  const raw = await readCapped(c.req.raw.body, MAX_WEBHOOK_BODY);
  if (!raw) return errorResponse(413, "payload_too_large", "Webhook body too large.");

  const problem = await checkWebhookSignature(
    raw,
    c.req.header("x-webhook-signature"),
    config.WEBHOOK_SIGNING_KEY,
  );
  // The doctor's webhook health: refusals counted, the last verified one remembered (batched).
  const tally = {
    env: c.env,
    config,
    waitUntil: (p: Promise<unknown>) => c.executionCtx.waitUntil(p),
  };
  if (problem) {
    log.warn("webhook.rejected", { reason: problem });
    if (problem === "signature_invalid") tallyRefused(tally);
    return errorResponse(401, problem, MESSAGES[problem]);
  }
  tallyVerified(tally);
  let body: unknown;
  try {
    // Exact numbers: the announced amount received is compared with what a refetch reads.
    body = parseExactJson(new TextDecoder().decode(raw));
  } catch {
    return errorResponse(400, "invalid_json", "The webhook body is not JSON.");
  }
  const kind = eventKind(body);
  if (kind !== null && !HANDLED_EVENTS.has(kind)) {
    log.warn("webhook.ignored", { event: kind });
    return c.json({ received: true, ignored: "event not handled" }, 202);
  }
  const envelope = check(webhookEnvelope, body);
  if (!envelope.success) {
    return errorResponse(
      422,
      "schema_invalid",
      `The webhook body does not match the expected envelope (${envelope.issues[0]?.path.join(".") || "body"}).`,
    );
  }
  const { event, data, timestamp } = envelope.data;
  // The send time is inside the signed bytes; an unusable one is null (never superseded).
  const stamp = { key: await deliveryKey(raw), sentAt: deliverySentAt(timestamp, Date.now()) };
  if (event === "deposit.statusChanged") return handleDepositWebhook(c, data, stamp);
  if (event === "withdrawal.statusChanged") return handleWithdrawalWebhook(c, data, stamp);
  if (X402_EVENTS.has(event)) return handleX402Webhook(c, data);
  const ref = check(invoiceRef, data);
  if (!ref.success) return missingFacts("invoice", ref.issues[0]?.path);
  const delivery = signedDelivery(ref.data.id, stamp, data, invoiceRecord);
  const candidates = await checkoutCandidates(
    ref.data,
    config.ORDER_ID_PREFIX,
    config.CHECKOUT_SIGNING_SECRET,
  );
  for (const checkoutId of candidates) {
    const stub = orderStub(c.env, checkoutId);
    const answer = appliedAnswer(c, "invoice", await stub.applyInvoiceWebhook(delivery));
    if (answer) return answer;
  }
  return notOurs(c, "invoice", ref.data.orderId ?? null);
});
