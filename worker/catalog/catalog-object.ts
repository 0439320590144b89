/**
 * @module
 * The one place a currency list is fetched from the service: a Durable Object per list (named
 * by its cache key) that every isolate asks when its own copy and the colo's Cache API both
 * miss. Being one object worldwide, it makes "at most one upstream call per list per cache
 * period" hold across isolates and colos, and on `*.workers.dev` hosts where the Cache API
 * does nothing.
 *
 * Invariants:
 * - at most one upstream call in flight per list; concurrent askers share it;
 * - a list is reused until `CATALOG_TTL_MS` after its fetch, judged by the asker's clock
 *   (the same clock the isolate layer uses), and never after;
 * - a failed fetch is not kept: the next asker tries again; its `UpstreamError` travels back as
 *   data (RPC would keep only the message), so the worker still maps it to a widget-facing code.
 * Memory only: an evicted object simply fetches again.
 */
import { DurableObject } from "cloudflare:workers";
import { parseConfig } from "../config/config.ts";
import type { Env } from "../config/env.ts";
import { upstreamFor } from "../config/upstream.ts";
import { UpstreamError } from "../upstream/errors.ts";
import {
  CATALOG_TTL_MS,
  type CatalogAnswer,
  type CatalogList,
  type CatalogRpc,
  type Lists,
} from "./catalog-rpc.ts";

export class CatalogObject extends DurableObject<Env> implements CatalogRpc {
  #entry: { fetchedAt: number | null; value: Promise<CatalogAnswer<Lists>> } | null = null;

  /**
   * The list, fetched at most once per period.
   *
   * @example
   * const { value } = await env.CATALOG.get(env.CATALOG.idFromName(key)).list({ kind: "fiat" }, Date.now());
   */
  list(which: CatalogList, now: number): Promise<CatalogAnswer<Lists>> {
    const entry = this.#entry;
    if (entry && (entry.fetchedAt === null || entry.fetchedAt + CATALOG_TTL_MS > now))
      return entry.value;
    const next = { fetchedAt: null as number | null, value: this.#fetch(which, now) };
    this.#entry = next;
    const forget = () => {
      if (this.#entry === next) this.#entry = null;
    };
    next.value.then((answer) => {
      if (answer.ok) next.fetchedAt = answer.fetchedAt;
      else forget();
    }, forget);
    return next.value;
  }

  async #fetch(which: CatalogList, now: number): Promise<CatalogAnswer<Lists>> {
    const parsed = parseConfig(this.env);
    if (!parsed.ok) throw new Error(`configuration invalid: ${parsed.problems.join("; ")}`);
    const upstream = upstreamFor(parsed.config);
    try {
      const value =
        which.kind === "fiat"
          ? await upstream.listFiatCurrencies()
          : await upstream.listCurrencies(which.network);
      return { ok: true, fetchedAt: now, value };
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      const { kind, message, status, code, requestId, retryAfterMs } = error;
      return { ok: false, error: { kind, message, status, code, requestId, retryAfterMs } };
    }
  }
}
