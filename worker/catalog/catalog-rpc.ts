/**
 * @module
 * What the worker may ask the currency catalogue (`CatalogObject`) through its stub, and how
 * the asker reads the answer, without importing the class (`Env` names `CATALOG` by it).
 */
import type { CryptoCurrency, FiatCurrency } from "../api/contract.ts";
import {
  UpstreamError,
  type UpstreamErrorDetails,
  type UpstreamErrorKind,
} from "../upstream/errors.ts";

/** How long a list is reused (judged by the asker's clock, on both sides). */
export const CATALOG_TTL_MS = 60_000;

/** Which list: the crypto currencies (optionally of one network) or the fiat currencies. */
export type CatalogList = { kind: "crypto"; network?: string } | { kind: "fiat" };

/** A list with the time it was fetched from the service. */
export interface FetchedList<T> {
  fetchedAt: number;
  value: T;
}

/** What `list` answers: the list, or why the service could not give it. */
export type CatalogAnswer<T> =
  | ({ ok: true } & FetchedList<T>)
  | { ok: false; error: { kind: UpstreamErrorKind; message: string } & UpstreamErrorDetails };

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
