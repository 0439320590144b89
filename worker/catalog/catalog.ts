/**
 * @module
 * The live currency lists, cached briefly so that widgets loading at once cost the service at
 * most one call per list per cache period.
 *
 * Three layers, cheapest first: a per-isolate single-flight entry (concurrent requests share
 * one answer until it expires), the Cache API shared by isolates in a colo (a no-op on
 * `*.workers.dev` hosts), and last the list's own Durable Object (`catalog-object.ts`), the
 * only caller of the service: one object worldwide per list, so the service sees at most one
 * call per list per period whatever the number of isolates. Never hardcoded: every entry comes
 * from the service.
 */
import { env } from "cloudflare:workers";
import type { CryptoCurrency, FiatCurrency } from "../api/contract.ts";
import type { Config } from "../config/config.ts";
import type { Env } from "../config/env.ts";
import { upstreamBaseUrl } from "../config/upstream.ts";
import { catalogStub } from "../objects/stubs.ts";
import { CATALOG_TTL_MS, type CatalogList, unwrapCatalogAnswer } from "./catalog-rpc.ts";

/** The catalogue's clock; tests move it instead of waiting out a cache period. */
export const catalogClock = { now: (): number => Date.now() };

/**
 * A list as the Cache API holds it: with the time it was fetched from the service, so that
 * whichever layer serves it, it expires `CATALOG_TTL_MS` after that fetch and no later.
 */
interface Stored<T> {
  fetchedAt: number;
  value: T;
}

interface Entry<T> {
  expiresAt: number;
  value: Promise<T>;
}
const memory = new Map<string, Entry<unknown>>();
/** Cache API entries this isolate wrote (so tests can forget them). */
const sharedUrls = new Set<string>();

function cacheApi(): Cache {
  return (caches as unknown as { default: Cache }).default;
}

/** A still-fresh shared entry, or undefined (missing, expired, or an older format). */
async function readShared<T>(cacheUrl: string, now: number): Promise<Stored<T> | undefined> {
  const shared = await cacheApi()
    .match(cacheUrl)
    .catch(() => undefined);
  const stored = shared ? ((await shared.json()) as Partial<Stored<T>>) : undefined;
  if (typeof stored?.fetchedAt !== "number" || stored.fetchedAt + CATALOG_TTL_MS <= now) return;
  return stored as Stored<T>;
}

/** Asks the list's Durable Object (the one caller of the service). */
async function fromCatalogObject<T>(key: string, which: CatalogList, now: number) {
  const answer = await catalogStub(env as Env, key).list(which, now);
  return unwrapCatalogAnswer(answer) as Stored<T>;
}

async function cached<T>(key: string, which: CatalogList): Promise<T> {
  const now = catalogClock.now();
  const hit = memory.get(key) as Entry<T> | undefined;
  if (hit && hit.expiresAt > now) return hit.value;
  const cacheUrl = `https://catalog.crypto-checkout.internal/${encodeURIComponent(key)}`;
  // Until the list arrives, concurrent callers share this entry; its expiry is then set from
  // the list's fetch time (an entry copied from the Cache API keeps that entry's age).
  const entry: Entry<T> = { expiresAt: now + CATALOG_TTL_MS, value: Promise.resolve() as never };
  entry.value = (async () => {
    const shared = await readShared<T>(cacheUrl, now);
    if (shared) {
      entry.expiresAt = shared.fetchedAt + CATALOG_TTL_MS;
      return shared.value;
    }
    const { fetchedAt, value } = await fromCatalogObject<T>(key, which, now);
    entry.expiresAt = fetchedAt + CATALOG_TTL_MS;
    const maxAge = Math.floor(CATALOG_TTL_MS / 1000);
    sharedUrls.add(cacheUrl);
    await cacheApi()
      .put(
        cacheUrl,
        Response.json({ fetchedAt, value } satisfies Stored<T>, {
          headers: { "cache-control": `max-age=${maxAge}` },
        }),
      )
      .catch(() => {});
    return value;
  })();
  memory.set(key, entry);
  // A failed load must not be reused: the next request tries again.
  entry.value.catch(() => {
    if (memory.get(key) === entry) memory.delete(key);
  });
  return entry.value;
}

/**
 * The crypto currencies the tenant can use, optionally for one network.
 *
 * @example
 * const tron = await cryptoCurrencies(config, "Tron");
 */
export function cryptoCurrencies(config: Config, network?: string): Promise<CryptoCurrency[]> {
  const key = `crypto:${upstreamBaseUrl(config)}:${config.ACCOUNT_ID}:${network?.toLowerCase() ?? "*"}`;
  return cached(key, { kind: "crypto", network });
}

/** The fiat currencies the tenant can invoice in. */
export function fiatCurrencies(config: Config): Promise<FiatCurrency[]> {
  const key = `fiat:${upstreamBaseUrl(config)}:${config.ACCOUNT_ID}`;
  return cached(key, { kind: "fiat" });
}

/**
 * Forgets the isolate layer; with `shared`, also the Cache API entries this isolate wrote —
 * together, what another isolate on a `*.workers.dev` host starts with (tests).
 */
export async function clearCatalogMemory(options: { shared?: boolean } = {}): Promise<void> {
  memory.clear();
  if (!options.shared) return;
  await Promise.all([...sharedUrls].map((url) => cacheApi().delete(url)));
  sharedUrls.clear();
}
