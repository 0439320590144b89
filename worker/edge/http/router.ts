/**
 * @module
 * The worker's `Hono`: hono's own class routed by `TrieRouter` alone. The default preset's
 * `SmartRouter` tries `RegExpRouter` first and falls back to `TrieRouter` for a route set the
 * regular-expression router refuses; the worker's is one (`/v1/notifications/test` beside
 * `/v1/notifications/:id/redeliver`: a static and a parameter segment at the same place), so
 * every request was already routed by the trie. Naming it directly keeps routing exactly as it
 * was and drops the two routers that never routed a request from the bundle (README "Sizes").
 * Sub-apps use it too: any import of the default preset would bring them back.
 */
import { HonoBase, type HonoOptions } from "hono/hono-base";
import { TrieRouter } from "hono/router/trie-router";
import type { BlankEnv, BlankSchema, Env, Schema } from "hono/types";

/**
 * A Hono app routed by `TrieRouter`.
 *
 * @example
 * const routes = new Hono<AppEnv>();
 * routes.get("/:id", (c) => c.json({ id: c.req.param("id") }));
 */
export class Hono<
  E extends Env = BlankEnv,
  S extends Schema = BlankSchema,
  BasePath extends string = "/",
> extends HonoBase<E, S, BasePath> {
  constructor(options: HonoOptions<E> = {}) {
    super({ ...options, router: options.router ?? new TrieRouter() });
  }
}
