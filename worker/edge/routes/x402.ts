/**
 * @module
 * `POST /v1/checkouts/:id/x402`: paying a checkout from the payer's own wallet with the x402
 * protocol (version 2, HTTP transport), for the widget and for agents alike.
 *
 * - no `PAYMENT-SIGNATURE` → 402 with `PAYMENT-REQUIRED` (base64 JSON; the body is the same
 *   JSON): the exact USDC amount due, the merchant's wallet, the network, what is bought;
 * - with one → the order verifies and settles it once (`order/x402/pay-x402.ts`): 200 with
 *   `PAYMENT-RESPONSE` (the settle answer) and `{data: snapshot}`; 202 `{data}` when the
 *   facilitator's answer was lost (the order finds the outcome); 402 with `PAYMENT-REQUIRED`
 *   (its `error` the facilitator's reason) and `{error: {code: "x402_payment_refused",
 *   message, reason}}` when refused; 409 for an order paid, refunded or with a payment in
 *   flight (`{error, data}`); 400 / 409 for a payload that does not pay these terms.
 *
 * A per-client limit of its own (`X402_RATE_LIMIT`, by IP): each attempt may cost a verify and
 * a settle.
 */
import type { Context } from "hono";
import { errorResponse } from "../../lib/api-error.ts";
import { encodeBase64Json } from "../../lib/x402/base64-json.ts";
import { X402_HEADERS } from "../../lib/x402/protocol.ts";
import { orderStubFromUrl } from "../../order/order-stub.ts";
import type { X402Answer } from "../../order/x402/pay-x402.ts";
import { callerKey } from "../http/limits.ts";
import type { AppEnv } from "../http/types.ts";

/** The limit's period in seconds (`wrangler.toml` `X402_RATE_LIMIT`). */
export const X402_LIMIT_PERIOD_S = 60;

/** Longest `PAYMENT-SIGNATURE` accepted (a v2 exact EVM payload is about 1.5 KB of base64). */
export const MAX_PAYMENT_HEADER = 8_192;

/**
 * The route's handler (mounted by `checkouts.ts`).
 *
 * @example
 * checkoutRoutes.post("/:id/x402", payWithX402);
 */
export async function payWithX402(c: Context<AppEnv>): Promise<Response> {
  const limiter = c.env.X402_RATE_LIMIT;
  if (limiter) {
    const key = c.req.header("cf-connecting-ip") ?? "unknown";
    if (!(await limiter.limit({ key })).success) {
      return errorResponse(
        429,
        "rate_limited",
        "Too many wallet payment attempts from this address; wait a minute and try again.",
        X402_LIMIT_PERIOD_S,
      );
    }
  }
  const stub = orderStubFromUrl(c.env, c.req.param("id") ?? "");
  const header = c.req.header(X402_HEADERS.signature) ?? null;
  if (header !== null && header.length > MAX_PAYMENT_HEADER) {
    return errorResponse(
      400,
      "x402_payload_invalid",
      `PAYMENT-SIGNATURE is longer than ${MAX_PAYMENT_HEADER} characters.`,
    );
  }
  // The resource is this checkout's x402 URL at the worker's public address (never the Host
  // a request claims): what the 402 names and what a payload must name when it names one.
  const resourceUrl = `${c.var.config.PUBLIC_BASE_URL}/v1/checkouts/${c.req.param("id")}/x402`;
  // Its verify and settle count in this client's share of the upstream budget.
  const client = await callerKey(c);
  const answer = await stub.payX402({ header, resourceUrl, ...(client ? { client } : {}) });
  return respond(answer);
}

function respond(answer: X402Answer): Response {
  const json = (body: unknown, status: number, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { "content-type": "application/json", "cache-control": "no-store", ...headers },
    });
  switch (answer.kind) {
    case "required": {
      const headers = { [X402_HEADERS.required]: encodeBase64Json(answer.paymentRequired) };
      if (!answer.refused) return json(answer.paymentRequired, 402, headers);
      const { reason, message } = answer.refused;
      return json(
        { ...answer.paymentRequired, error: { code: "x402_payment_refused", message, reason } },
        402,
        headers,
      );
    }
    case "paid":
      return json({ data: answer.snapshot }, 200, {
        [X402_HEADERS.response]: encodeBase64Json(answer.settle),
      });
    case "pending":
      return json({ data: answer.snapshot }, 202);
    case "error": {
      const response = errorResponse(answer.status, answer.code, answer.message, answer.retryAfter);
      if (!answer.snapshot) return response;
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        headers[name] = value;
      });
      return json(
        { error: { code: answer.code, message: answer.message }, data: answer.snapshot },
        answer.status,
        headers,
      );
    }
  }
}
