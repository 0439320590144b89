/**
 * @module
 * The answers every kind of delivery shares, so the service sees one contract whatever object
 * a webhook is about: 422 when its routing facts are missing, 503 when the object could not
 * confirm it with the service (the service redelivers), 200 when the object knew it (applied,
 * a duplicate, or superseded by a newer acknowledged delivery: `superseded: true`), 202 with a
 * log line when no object of ours owns it.
 */
import type { Context } from "hono";
import type { DeliveryOutcome } from "../../core/converge/delivery.ts";
import { errorResponse } from "../../lib/api-error.ts";
import type { AppEnv } from "../http/types.ts";

/** What a delivery is about; `invoice` deliveries belong to orders. */
export type DeliveryKind = "invoice" | "deposit" | "withdrawal";

const OWNER = { invoice: "order", deposit: "deposit", withdrawal: "withdrawal" } as const;

/**
 * 422: the delivery lacks the field at `path`.
 *
 * @example
 * if (!ref.success) return missingFacts("deposit", ref.error.issues[0]?.path);
 */
export function missingFacts(kind: DeliveryKind, path: readonly PropertyKey[] = []): Response {
  return errorResponse(
    422,
    "schema_invalid",
    `The ${kind} in the webhook lacks ${path.join(".") || "fields"}.`,
  );
}

/**
 * The answer for an object's outcome, or null when the object does not know the delivery
 * (the caller may try another object, then answers `notOurs`).
 *
 * @example
 * const answer = appliedAnswer(c, "withdrawal", await stub.applyWithdrawalWebhook(delivery));
 */
export function appliedAnswer(
  c: Context<AppEnv>,
  kind: DeliveryKind,
  outcome: DeliveryOutcome,
): Response | null {
  if (!outcome.ok) {
    return errorResponse(
      503,
      "service_busy",
      `Could not confirm the ${kind} with the payment service; retry later.`,
    );
  }
  if (!outcome.value.known) return null;
  const { duplicate, superseded } = outcome.value;
  return c.json({ received: true, duplicate, ...(superseded ? { superseded } : {}) });
}

/** 202 and a log line: a verified delivery about nothing of ours. */
export function notOurs(c: Context<AppEnv>, kind: DeliveryKind, orderId: string | null): Response {
  c.var.log.warn(`webhook.unknown_${OWNER[kind]}`, { orderId });
  return c.json({ received: true, ignored: `unknown ${OWNER[kind]}` }, 202);
}
