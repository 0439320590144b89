/**
 * @module
 * The demo panel's link to the sandbox's admin routes (what the payment service's admin panel
 * offers: *Simulate payment* and *test webhooks*). Sandbox-only: a real service has no such API.
 */

/** Actions the sandbox's `POST /sandbox/invoices/:ref/simulate` accepts. */
export const SIMULATE_ACTIONS = [
  "paid",
  "partial",
  "over",
  "processing",
  "suspend",
  "expire",
  "fail",
  "cancel",
] as const;
export type SimulateAction = (typeof SIMULATE_ACTIONS)[number];

/** The sandbox's answer, passed through to the panel as-is. */
export interface AdminResult {
  status: number;
  body: unknown;
}

async function post(url: string, body: unknown): Promise<AdminResult> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  try {
    return { status: response.status, body: text ? JSON.parse(text) : null };
  } catch {
    return { status: response.status, body: { raw: text.slice(0, 500) } };
  }
}

/**
 * Simulates a payment event on an invoice (`ref` = its id or orderId, e.g. `cc-K7Q2XM`).
 *
 * @example
 * await simulate(sandboxUrl, "cc-K7Q2XM", "partial", "0.0005");
 */
export function simulate(
  sandboxUrl: string,
  ref: string,
  action: SimulateAction,
  amount?: string,
): Promise<AdminResult> {
  return post(
    `${sandboxUrl}/sandbox/invoices/${encodeURIComponent(ref)}/simulate`,
    amount ? { action, amount } : { action },
  );
}

/**
 * Asks the sandbox to send a test webhook to its configured callback URL (the worker).
 *
 * @example
 * await sendTestWebhook(sandboxUrl);
 */
export function sendTestWebhook(sandboxUrl: string): Promise<AdminResult> {
  return post(`${sandboxUrl}/sandbox/test-webhook`, {});
}
