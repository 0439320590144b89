/**
 * @module
 * `X-Content-Type-Options: nosniff` on every answer the worker makes: JSON, errors (thrown,
 * `notFound`, `onError`), SSE streams handed over by a Durable Object, redirects. A browser then
 * never runs an answer as a script or a stylesheet its declared type does not allow. Static
 * assets (`/widget.js` and its chunks) get the same header from `dist/public/_headers`, which
 * the widget build writes (`scripts/build-widget.ts`).
 */
import { createMiddleware } from "hono/factory";

/** The header and its one value. */
export const NO_SNIFF = ["x-content-type-options", "nosniff"] as const;

/**
 * Sets the header on the answer, whichever handler made it. An answer whose headers are
 * immutable (a Durable Object's `fetch` response) is re-wrapped around the same body stream.
 *
 * @example
 * app.use("*", noSniff);
 */
export const noSniff = createMiddleware(async (c, next) => {
  await next();
  try {
    c.res.headers.set(...NO_SNIFF);
  } catch {
    const res = new Response(c.res.body, c.res);
    res.headers.set(...NO_SNIFF);
    c.res = res;
  }
});
