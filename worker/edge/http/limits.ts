/**
 * @module
 * Abuse limits: request body size, and checkout creation per client (the Workers rate-limit
 * binding, keyed by the client's IP).
 */

import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { errorResponse } from "../../lib/api-error.ts";
import type { AppEnv } from "./types.ts";

/** Largest JSON body the widget routes accept. */
export const MAX_WIDGET_BODY = 16 * 1024;

/** Refuses bodies over `maxSize` bytes with 413 `payload_too_large`. */
export const limitBody = (maxSize = MAX_WIDGET_BODY) =>
  bodyLimit({
    maxSize,
    onError: () =>
      errorResponse(413, "payload_too_large", `The request body is larger than ${maxSize} bytes.`),
  });

/**
 * The rate-limit binding's period in seconds (`wrangler.toml` `[[ratelimits]]` `period`): the
 * binding says only "over the limit", so a refused client is told to wait one whole period.
 */
export const CHECKOUT_LIMIT_PERIOD_S = 60;

/** The answer to a client over the creation limit: 429 `rate_limited` + `Retry-After`. */
const overCreationLimit = () =>
  errorResponse(
    429,
    "rate_limited",
    "Too many checkouts from this address; wait a minute and try again.",
    CHECKOUT_LIMIT_PERIOD_S,
  );

/** Asks the rate-limit binding whether this client may create now (true without a binding). */
async function creationAllowed(c: Context<AppEnv>): Promise<boolean> {
  const limiter = c.env.CHECKOUT_RATE_LIMIT;
  if (!limiter) return true;
  const key = c.req.header("cf-connecting-ip") ?? "unknown";
  return (await limiter.limit({ key })).success;
}

/**
 * Runs `prepare` (reading and checking the request: no write, no object touched) while the
 * rate-limit binding is asked, so the binding's round trip is not added to the create's
 * latency. A client over the limit gets 429 `rate_limited` (+ `Retry-After`: the limit's
 * period) whatever `prepare` answered or threw, and `create` never runs for it.
 *
 * @example
 * return underCreationLimit(c, () => readAndVerify(c), (input) => open(c, input));
 */
export async function underCreationLimit<T>(
  c: Context<AppEnv>,
  prepare: () => Promise<T>,
  create: (prepared: T) => Promise<Response>,
): Promise<Response> {
  const allowed = creationAllowed(c);
  // Looked at below; a binding that fails while `prepare` runs is no unhandled rejection.
  allowed.catch(() => {});
  // Settled both ways before the limiter's answer is looked at: its refusal comes first.
  const prepared = await prepare().then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  if (!(await allowed)) return overCreationLimit();
  if (!prepared.ok) throw prepared.error;
  return create(prepared.value);
}
