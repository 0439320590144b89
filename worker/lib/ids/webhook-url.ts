/**
 * @module
 * Where the service delivers its webhooks: one URL for invoices, deposits and withdrawals (the
 * event name tells them apart), written here for every create. The route that answers it is
 * `edge/app.ts` (`/webhooks`) + `edge/routes/webhooks.ts` (`/payment`).
 */

const WEBHOOK_PATH = "/webhooks/payment";

/**
 * The `webhookUrl` sent with every upstream create.
 *
 * @example
 * webhookUrl("https://pay.example.com"); // "https://pay.example.com/webhooks/payment"
 */
export function webhookUrl(publicBaseUrl: string): string {
  return `${publicBaseUrl}${WEBHOOK_PATH}`;
}
