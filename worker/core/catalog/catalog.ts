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
 *
 * Two lists only, crypto and fiat: one network's currencies are the full crypto list filtered
 * here (the entry's `network`, compared without case), so a network value costs nothing
 * upstream and adds no object, cache key or map entry beyond one per network the list names.
 * A failure is reused briefly too (`CATALOG_FAILURE_TTL_MS`, in memory and in the object),
 * never put in the Cache API.
 */
import { env } from "cloudflare:workers";
import type { CryptoCurrency, FiatCurrency } from "../../../packages/contract/src/http-api.ts";
import type { Config } from "../config/config.ts";
import type { CoreEnv } from "../config/core-env.ts";
import { upstreamBaseUrl } from "../config/upstream.ts";
import { catalogStub } from "../objects/stubs.ts";
import {
  answerExpiresAt,
  CATALOG_TTL_MS,
  type CatalogList,
  stillFresh,
  unwrapCatalogAnswer,
} from "./catalog-rpc.ts";

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
  /** The load failed with the service's own answer, reused until `expiresAt` like a list. */
  keepFailure?: boolean;
}
/**
 * The isolate's copies, by cache key: two per service + account (crypto, fiat), never keyed by
 * anything a request sends. Bounded all the same: past `MAX_MEMORY_KEYS` it starts over.
 */
const memory = new Map<string, Entry<unknown>>();
const MAX_MEMORY_KEYS = 8;

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

/**
 * Asks the list's Durable Object (the one caller of the service); the entry then lives as long
 * as the object's answer does, a failure included (so an isolate does not ask again sooner).
 */
async function fromCatalogObject<T>(key: string, which: CatalogList, now: number, entry: Entry<T>) {
  const answer = await catalogStub(env as CoreEnv, key).list(which, now);
  entry.expiresAt = answerExpiresAt(answer);
  entry.keepFailure = !answer.ok;
  return unwrapCatalogAnswer(answer) as Stored<T>;
}

/** A list's key (memory, Cache API, object name): one per list, service and account. */
const listKey = (config: Config, which: CatalogList) =>
  `${which.kind}:${upstreamBaseUrl(config)}:${config.ACCOUNT_ID}`;
/** The Cache API's URL of a list's shared entry. */
const sharedUrl = (key: string) =>
  `https://catalog.crypto-checkout.internal/${encodeURIComponent(key)}`;

async function cached<T>(config: Config, which: CatalogList): Promise<T> {
  const key = listKey(config, which);
  const now = catalogClock.now();
  const hit = memory.get(key) as Entry<T> | undefined;
  if (hit && stillFresh(hit.expiresAt, now)) return hit.value;
  const cacheUrl = sharedUrl(key);
  // Until the list arrives, concurrent callers share this entry; its expiry is then set from
  // the list's fetch time (an entry copied from the Cache API keeps that entry's age).
  const entry: Entry<T> = {
    expiresAt: now + CATALOG_TTL_MS,
    value: Promise.resolve() as never,
  };
  entry.value = (async () => {
    const shared = await readShared<T>(cacheUrl, now);
    if (shared) {
      entry.expiresAt = shared.fetchedAt + CATALOG_TTL_MS;
      return shared.value;
    }
    const { fetchedAt, value } = await fromCatalogObject<T>(key, which, now, entry);
    const maxAge = Math.floor(CATALOG_TTL_MS / 1000);
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
  if (memory.size >= MAX_MEMORY_KEYS && !memory.has(key)) memory.clear();
  memory.set(key, entry);
  // The service's failure is reused until the object's copy of it expires; any other failed
  // load (the object unreachable) is not: the next request tries again.
  entry.value.catch(() => {
    if (!entry.keepFailure && memory.get(key) === entry) memory.delete(key);
  });
  return entry.value;
}

/**
 * One list per network the full list names (keys: the network in lower case), made once per
 * fetched list; bounded by the service's list, whatever networks callers ask for.
 */
const byNetwork = new WeakMap<CryptoCurrency[], Map<string, CryptoCurrency[]>>();
/** The answer for a network the list does not name (never mutated). */
const NO_CURRENCIES: CryptoCurrency[] = [];

function onNetwork(all: CryptoCurrency[], network: string): CryptoCurrency[] {
  let lists = byNetwork.get(all);
  if (!lists) {
    lists = new Map();
    for (const currency of all) {
      const name = currency.network.toLowerCase();
      lists.set(name, [...(lists.get(name) ?? []), currency]);
    }
    byNetwork.set(all, lists);
  }
  return lists.get(network.toLowerCase()) ?? NO_CURRENCIES;
}

/**
 * The crypto currencies the tenant can use, optionally for one network (the service's network
 * name, any case): the one cached full list, filtered here. A network the list does not name
 * answers an empty list and costs nothing upstream.
 *
 * @example
 * const tron = await cryptoCurrencies(config, "Tron");
 */
export async function cryptoCurrencies(
  config: Config,
  network?: string,
): Promise<CryptoCurrency[]> {
  const all = await cached<CryptoCurrency[]>(config, { kind: "crypto" });
  return network === undefined ? all : onNetwork(all, network);
}

/** The fiat currencies the tenant can invoice in. */
export function fiatCurrencies(config: Config): Promise<FiatCurrency[]> {
  return cached(config, { kind: "fiat" });
}

/**
 * Forgets the isolate layer; with `shared` (a configuration), also the Cache API entries of its
 * two lists — together, what another isolate on a `*.workers.dev` host starts with (tests).
 * Nothing deployed calls it: not in the bundle.
 */
export async function clearCatalogMemory(options: { shared?: Config } = {}): Promise<void> {
  memory.clear();
  const config = options.shared;
  if (!config) return;
  await Promise.all(
    (["crypto", "fiat"] as const).map((kind) =>
      cacheApi().delete(sharedUrl(listKey(config, { kind }))),
    ),
  );
}
