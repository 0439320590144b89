/**
 * @module
 * Abuse limits: request body size, and checkout creation per client (the Workers rate-limit
 * binding, keyed by the client's IP).
 */
import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
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

/** 429 `rate_limited` (+ `Retry-After`) when the client created too many checkouts recently. */
export const limitCheckoutCreation = createMiddleware<AppEnv>(async (c, next) => {
  const limiter = c.env.CHECKOUT_RATE_LIMIT;
  if (limiter) {
    const key = c.req.header("cf-connecting-ip") ?? "unknown";
    const { success } = await limiter.limit({ key });
    if (!success) {
      return errorResponse(
        429,
        "rate_limited",
        "Too many checkouts from this address; wait a minute and try again.",
        CHECKOUT_LIMIT_PERIOD_S,
      );
    }
  }
  await next();
});
