/**
 * @module
 * The one place a currency list is fetched from the service: a Durable Object per list kind
 * (crypto, fiat; named by its cache key) that every isolate asks when its own copy and the
 * colo's Cache API both miss. Being one object worldwide, it makes "at most one upstream call
 * per list per cache period" hold across isolates and colos, and on `*.workers.dev` hosts where
 * the Cache API does nothing.
 *
 * Invariants:
 * - at most one upstream call in flight per list; concurrent askers share it;
 * - a list is reused until `CATALOG_TTL_MS` after its fetch, judged by the asker's clock
 *   (the same clock the isolate layer uses), and never after;
 * - a failure is reused too, for `CATALOG_FAILURE_TTL_MS` (or the service's longer wait hint):
 *   however many ask while the service fails, it hears one call per failure period. Its
 *   `UpstreamError` travels back as data (RPC would keep only the message), so the worker
 *   still maps it to a widget-facing code;
 * - the object's name never comes from a request: two objects per deployment, whatever callers
 *   send (a network filter is applied by the route, to the full list).
 * Memory only: an evicted object simply fetches again.
 */
import { DurableObject } from "cloudflare:workers";
import { UpstreamError } from "../../service/errors.ts";
import { parseConfig } from "../config/config.ts";
import type { CoreEnv } from "../config/core-env.ts";
import { upstreamFor } from "../config/upstream.ts";
import {
  answerExpiresAt,
  type CatalogAnswer,
  type CatalogList,
  type CatalogRpc,
  type Lists,
  stillFresh,
} from "./catalog-rpc.ts";

export class CatalogObject extends DurableObject<CoreEnv> implements CatalogRpc {
  /** The last answer (list or failure); `expiresAt` null while its call is in flight. */
  #entry: { expiresAt: number | null; value: Promise<CatalogAnswer<Lists>> } | null = null;

  /**
   * The list (or the service's failure), fetched at most once per period.
   *
   * @example
   * const answer = await env.CATALOG.get(env.CATALOG.idFromName(key)).list({ kind: "fiat" }, Date.now());
   */
  list(which: CatalogList, now: number): Promise<CatalogAnswer<Lists>> {
    const entry = this.#entry;
    if (entry && (entry.expiresAt === null || stillFresh(entry.expiresAt, now))) return entry.value;
    const next = { expiresAt: null as number | null, value: this.#fetch(which, now) };
    this.#entry = next;
    next.value.then(
      (answer) => {
        next.expiresAt = answerExpiresAt(answer);
      },
      () => {
        // Not the service's answer (configuration invalid): not kept, the next asker retries.
        if (this.#entry === next) this.#entry = null;
      },
    );
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
          : await upstream.listCurrencies();
      return { ok: true, fetchedAt: now, value };
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      const { kind, message, status, code, requestId, retryAfterMs } = error;
      return {
        ok: false,
        failedAt: now,
        error: { kind, message, status, code, requestId, retryAfterMs },
      };
    }
  }
}
