/**
 * @module
 * The live currency lists, cached briefly so that widgets loading at once cost the service at
 * most one call per list per cache period.
 *
 * Two layers: a per-isolate single-flight entry (concurrent requests share one in-flight
 * upstream call and its result until it expires), then the Cache API shared by isolates in a
 * colo. (On `*.workers.dev` hosts the Cache API does nothing; the isolate layer still holds.)
 * Never hardcoded: every entry comes from the service.
 */
import type { CryptoCurrency, FiatCurrency } from "../api/contract.ts";
import type { Config } from "../config/config.ts";
import { upstreamBaseUrl, upstreamFor } from "../config/upstream.ts";

/** How long a list is reused. */
export const CATALOG_TTL_MS = 60_000;

interface Entry<T> {
  expiresAt: number;
  value: Promise<T>;
}
const memory = new Map<string, Entry<unknown>>();

async function cached<T>(key: string, load: () => Promise<T>): Promise<T> {
  const now = Date.now();
  const hit = memory.get(key) as Entry<T> | undefined;
  if (hit && hit.expiresAt > now) return hit.value;
  const cacheUrl = `https://catalog.crypto-checkout.internal/${encodeURIComponent(key)}`;
  const value = (async () => {
    const shared = await (caches as unknown as { default: Cache }).default
      .match(cacheUrl)
      .catch(() => undefined);
    if (shared) return (await shared.json()) as T;
    const fresh = await load();
    const maxAge = Math.floor(CATALOG_TTL_MS / 1000);
    await (caches as unknown as { default: Cache }).default
      .put(cacheUrl, Response.json(fresh, { headers: { "cache-control": `max-age=${maxAge}` } }))
      .catch(() => {});
    return fresh;
  })();
  memory.set(key, { expiresAt: now + CATALOG_TTL_MS, value });
  // A failed load must not be reused: the next request tries again.
  value.catch(() => {
    if (memory.get(key)?.value === value) memory.delete(key);
  });
  return value;
}

/**
 * The crypto currencies the tenant can use, optionally for one network.
 *
 * @example
 * const tron = await cryptoCurrencies(config, "Tron");
 */
export function cryptoCurrencies(config: Config, network?: string): Promise<CryptoCurrency[]> {
  const key = `crypto:${upstreamBaseUrl(config)}:${config.ACCOUNT_ID}:${network?.toLowerCase() ?? "*"}`;
  return cached(key, () => upstreamFor(config).listCurrencies(network));
}

/** The fiat currencies the tenant can invoice in. */
export function fiatCurrencies(config: Config): Promise<FiatCurrency[]> {
  const key = `fiat:${upstreamBaseUrl(config)}:${config.ACCOUNT_ID}`;
  return cached(key, () => upstreamFor(config).listFiatCurrencies());
}

/** Forgets the isolate layer (tests). */
export function clearCatalogMemory(): void {
  memory.clear();
}
