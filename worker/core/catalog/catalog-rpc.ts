/**
 * @module
 * What the worker may ask the currency catalogue (`CatalogObject`) through its stub, and how
 * the asker reads the answer, without importing the class (`Env` names `CATALOG` by it).
 */
import type { CryptoCurrency, FiatCurrency } from "../../../packages/contract/src/http-api.ts";
import {
  UpstreamError,
  type UpstreamErrorDetails,
  type UpstreamErrorKind,
} from "../../service/errors.ts";

/** How long a list is reused (judged by the asker's clock, on both sides). */
export const CATALOG_TTL_MS = 60_000;

/**
 * How long a failure to get a list is reused before the service is asked again (or the
 * service's own `msBeforeNext`, when longer, up to `CATALOG_TTL_MS`): while the service fails,
 * any load costs it one call (of at most 3 attempts) per list per 10 s, never a retry storm.
 */
export const CATALOG_FAILURE_TTL_MS = 10_000;

/**
 * Which list: the crypto currencies or the fiat currencies. Never one network's list: a route
 * filters the one full list locally, so a caller's query string cannot make new upstream calls,
 * objects or cache keys (issue 20).
 */
export type CatalogList = { kind: "crypto" } | { kind: "fiat" };

/**
 * True while an answer that expires at `expiresAt` may still be reused at `now`: not yet
 * expired, and not further ahead than one period (a clock that went back never makes an answer,
 * a failure above all, live for longer than its period).
 *
 * @example
 * stillFresh(answerExpiresAt(answer), Date.now());
 */
export function stillFresh(expiresAt: number, now: number): boolean {
  return expiresAt > now && expiresAt - now <= CATALOG_TTL_MS;
}

/** A list with the time it was fetched from the service. */
export interface FetchedList<T> {
  fetchedAt: number;
  value: T;
}

/** What `list` answers: the list, or why the service could not give it (and when it failed). */
export type CatalogAnswer<T> =
  | ({ ok: true } & FetchedList<T>)
  | {
      ok: false;
      failedAt: number;
      error: { kind: UpstreamErrorKind; message: string } & UpstreamErrorDetails;
    };

/**
 * Until when an answer is reused: a list for `CATALOG_TTL_MS` after its fetch; a failure for
 * `CATALOG_FAILURE_TTL_MS`, or the service's own wait hint when longer (capped at a period).
 *
 * @example
 * answerExpiresAt({ ok: false, failedAt: 0, error: { kind: "http", message: "…" } }); // 10_000
 */
export function answerExpiresAt(answer: CatalogAnswer<unknown>): number {
  if (answer.ok) return answer.fetchedAt + CATALOG_TTL_MS;
  const hint = answer.error.retryAfterMs ?? 0;
  return answer.failedAt + Math.min(Math.max(CATALOG_FAILURE_TTL_MS, hint), CATALOG_TTL_MS);
}

/** The asker's side: the list, or the `UpstreamError` the object saw, rebuilt. */
export function unwrapCatalogAnswer<T>(answer: CatalogAnswer<T>): FetchedList<T> {
  if (answer.ok) return { fetchedAt: answer.fetchedAt, value: answer.value };
  const { kind, message, ...details } = answer.error;
  throw new UpstreamError(kind, message, details);
}

/** The lists the catalogue keeps. */
export type Lists = CryptoCurrency[] | FiatCurrency[];

/** The catalogue's RPC methods (see `catalog-object.ts`). */
export interface CatalogRpc extends Rpc.DurableObjectBranded {
  list(which: CatalogList, now: number): Promise<CatalogAnswer<Lists>>;
}
