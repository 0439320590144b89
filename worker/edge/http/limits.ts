/**
 * @module
 * Abuse limits: request body size (a refused body read and dropped first, so the client reads
 * the 413), checkout creation per client (the Workers rate-limit binding, keyed by the client's
 * IP), and currency locks per client across its checkouts (keyed by its client key,
 * `client-key.ts`).
 */

import type { Context, MiddlewareHandler } from "hono";
import { errorResponse } from "../../lib/api-error.ts";
import { clientKey } from "./client-key.ts";
import { drainBody } from "./drain-body.ts";
import { readUpTo } from "./read-capped.ts";
import type { AppEnv } from "./types.ts";

/** Largest JSON body the widget routes accept. */
export const MAX_WIDGET_BODY = 16 * 1024;

/**
 * Refuses bodies over `maxSize` bytes with 413 `payload_too_large`, whether the body declares
 * its length or not (a chunked body is counted as it is read; never more than `maxSize` bytes
 * are held). A body within the limit reaches the route as the request's body, read once.
 *
 * The 413 is answered only after the rest of the body was read and dropped (`drain-body.ts`,
 * capped in bytes and time): answered while the client is still sending, a real connection is
 * often reset, or a proxy in front answers a plain-text 500, and the client never reads the
 * JSON 413 (hono's `bodyLimit` answered at once).
 *
 * @example
 * routes.post("/", limitBody(), async (c) => readJson(c, schema));
 */
export const limitBody =
  (maxSize = MAX_WIDGET_BODY): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const body = c.req.raw.body;
    if (!body) return next();
    const reader = body.getReader();
    // A body that declares more is not read at all, only drained.
    const declared = Number(c.req.header("content-length"));
    const bytes = declared > maxSize ? null : await readUpTo(reader, maxSize);
    if (!bytes) {
      await drainBody(reader);
      return errorResponse(
        413,
        "payload_too_large",
        `The request body is larger than ${maxSize} bytes.`,
      );
    }
    // The route reads the body again (`c.req.json()`): it gets the bytes read here.
    c.req.raw = new Request(c.req.raw, { body: bytes });
    return next();
  };

/**
 * The rate-limit bindings' period in seconds (`wrangler.toml` `[[ratelimits]]` `period`): a
 * binding says only "over the limit", so a refused client is told to wait one whole period.
 */
export const CHECKOUT_LIMIT_PERIOD_S = 60;

/** Currency locks one client may ask per period, across all its checkouts (`LOCK_RATE_LIMIT`). */
export const LOCKS_PER_CLIENT = 30;

/** The answer to a client over the creation limit: 429 `rate_limited` + `Retry-After`. */
const overCreationLimit = () =>
  errorResponse(
    429,
    "rate_limited",
    "Too many checkouts from this address; wait a minute and try again.",
    CHECKOUT_LIMIT_PERIOD_S,
  );

/** The answer to a client over the lock limit: 429 `rate_limited` + `Retry-After`. */
const overLockLimit = () =>
  errorResponse(
    429,
    "rate_limited",
    "Too many currency changes from this address; wait a minute and try again.",
    CHECKOUT_LIMIT_PERIOD_S,
  );

/** Asks `limiter` whether `key` may go on now (true without a binding). */
async function allowedBy(limiter: RateLimit | undefined, key: string): Promise<boolean> {
  if (!limiter) return true;
  return (await limiter.limit({ key })).success;
}

/**
 * The caller's client key (`client-key.ts`): its address (an IPv6 /64), hashed with the
 * deployment's checkout secret. None without an address: behind Cloudflare every request from
 * the internet carries `cf-connecting-ip`, so one without it came from inside (a test, a
 * service binding) and is nobody's share.
 *
 * @example
 * const client = await callerKey(c);
 */
export async function callerKey(c: Context<AppEnv>): Promise<string | undefined> {
  const ip = c.req.header("cf-connecting-ip");
  return ip ? clientKey(ip, c.var.config.CHECKOUT_SIGNING_SECRET) : undefined;
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
export function underCreationLimit<T>(
  c: Context<AppEnv>,
  prepare: () => Promise<T>,
  create: (prepared: T) => Promise<Response>,
): Promise<Response> {
  const key = c.req.header("cf-connecting-ip") ?? "unknown";
  const allowed = allowedBy(c.env.CHECKOUT_RATE_LIMIT, key);
  return underLimit(allowed, overCreationLimit, prepare, create);
}

/**
 * As `underCreationLimit`, for a currency lock of client `client` (`callerKey`): at most
 * `LOCKS_PER_CLIENT` a minute across all its checkouts (`LOCK_RATE_LIMIT`), however many it
 * opened. Checked before the order object is touched: a refused lock costs no object, no
 * budget lease and no call.
 *
 * @example
 * return underLockLimit(c, client, () => readLock(c), (entry) => lock(c, entry));
 */
export function underLockLimit<T>(
  c: Context<AppEnv>,
  client: string | undefined,
  prepare: () => Promise<T>,
  lock: (prepared: T) => Promise<Response>,
): Promise<Response> {
  const limiter = client === undefined ? undefined : c.env.LOCK_RATE_LIMIT;
  return underLimit(allowedBy(limiter, client ?? ""), overLockLimit, prepare, lock);
}

async function underLimit<T>(
  allowed: Promise<boolean>,
  refusal: () => Response,
  prepare: () => Promise<T>,
  run: (prepared: T) => Promise<Response>,
): Promise<Response> {
  // Looked at below; a binding that fails while `prepare` runs is no unhandled rejection.
  allowed.catch(() => {});
  // Settled both ways before the limiter's answer is looked at: its refusal comes first.
  const prepared = await prepare().then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  if (!(await allowed)) return refusal();
  if (!prepared.ok) throw prepared.error;
  return run(prepared.value);
}
