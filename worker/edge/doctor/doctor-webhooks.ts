/**
 * @module
 * The doctor's checks of notifications and webhooks: the notification secret (its own, or the
 * API token's as a fallback), notifications that used up their retries, and the service's
 * webhooks as the account's index saw them (refused for a bad signature in the last hour, the
 * last one verified), with what to do about each.
 */
import type { AccountHealth } from "../../core/account/account-rpc.ts";
import type { Config } from "../../core/config/config.ts";
import type { DoctorCheck } from "./doctor-report.ts";

/**
 * A warning while notifications are signed with `MERCHANT_API_TOKEN`, or null.
 *
 * @example
 * webhookSecretWarning(config)?.name; // "webhook_secret"
 */
export function webhookSecretWarning(
  config: Pick<Config, "MERCHANT_WEBHOOK_SECRET" | "MERCHANT_API_TOKEN">,
): DoctorCheck | null {
  if (
    config.MERCHANT_WEBHOOK_SECRET &&
    config.MERCHANT_WEBHOOK_SECRET !== config.MERCHANT_API_TOKEN
  )
    return null;
  const why = config.MERCHANT_WEBHOOK_SECRET
    ? "MERCHANT_WEBHOOK_SECRET equals MERCHANT_API_TOKEN"
    : "MERCHANT_WEBHOOK_SECRET is not set, so notifications are signed with MERCHANT_API_TOKEN";
  return {
    name: "webhook_secret",
    ok: true,
    warning: true,
    message: `${why}: whoever can verify notifications can also read every order and start refunds. Set its own secret (npx wrangler secret put MERCHANT_WEBHOOK_SECRET, ≥ 16 characters) and verify notifications with it on your backend.`,
  };
}

/** How the merchant sends a test webhook (the service's admin panel has a test-webhooks function). */
function testHint(config: Pick<Config, "PUBLIC_BASE_URL">): string {
  return `Send a test webhook from the service's admin panel (its test-webhooks function) to ${config.PUBLIC_BASE_URL}/webhooks/payment; a verified one shows here within seconds.`;
}

/**
 * The lines the account's index adds: failed notifications, and webhook health.
 *
 * @example
 * accountChecks(health, config).map((c) => c.name); // ["notifications", "webhooks"]
 */
export function accountChecks(
  health: AccountHealth,
  config: Pick<Config, "PUBLIC_BASE_URL" | "MERCHANT_WEBHOOK_URL">,
): DoctorCheck[] {
  const failed = health.failedNotifications;
  const notifications: DoctorCheck = !config.MERCHANT_WEBHOOK_URL
    ? {
        name: "notifications",
        ok: true,
        message: `MERCHANT_WEBHOOK_URL is not set: notifications are recorded (GET /v1/notifications), not sent${failed > 0 ? ` (${failed} so far)` : ""}.`,
      }
    : failed === 0
      ? { name: "notifications", ok: true, message: "No notification has failed." }
      : {
          name: "notifications",
          ok: true,
          warning: true,
          message: `${failed} notification(s) failed after every retry and were not delivered to MERCHANT_WEBHOOK_URL. GET /v1/notifications?status=failed lists them; POST /v1/notifications/<id>/redeliver sends one again.`,
        };
  return [notifications, webhookCheck(health, config)];
}

function webhookCheck(health: AccountHealth, config: Pick<Config, "PUBLIC_BASE_URL">): DoctorCheck {
  const { refusedLastHour: refused, lastRefusedAt, lastVerifiedAt } = health;
  const verified = lastVerifiedAt
    ? `the last verified webhook arrived at ${lastVerifiedAt}`
    : "no webhook verified yet";
  const verifiedSince = lastVerifiedAt !== null && (lastRefusedAt ?? "") < lastVerifiedAt;
  if (refused > 0 && !verifiedSince) {
    return {
      name: "webhooks",
      ok: false,
      message: `${refused} refused in the last hour for a bad signature and ${verified}: the Webhook Signing Key is probably wrong. Copy it again from Settings → Security in the service's admin into WEBHOOK_SIGNING_KEY (npx wrangler secret put WEBHOOK_SIGNING_KEY). ${testHint(config)}`,
    };
  }
  if (refused > 0) {
    return {
      name: "webhooks",
      ok: true,
      warning: true,
      message: `${refused} refused in the last hour for a bad signature, but ${verified}, after the last refusal: the key works; the refused ones were probably not sent by the service.`,
    };
  }
  if (!lastVerifiedAt) {
    return {
      name: "webhooks",
      ok: true,
      warning: true,
      message: `No webhook verified yet (none refused either). ${testHint(config)}`,
    };
  }
  return {
    name: "webhooks",
    ok: true,
    message: `Webhooks verify: ${verified}; none refused in the last hour.`,
  };
}
