import { listDurableObjectIds } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { CryptoCurrency, FiatCurrency } from "../../packages/contract/src/http-api.ts";
import { catalogClock, clearCatalogMemory } from "../../worker/core/catalog/catalog.ts";
import { CATALOG_FAILURE_TTL_MS, CATALOG_TTL_MS } from "../../worker/core/catalog/catalog-rpc.ts";
import { clearFaults } from "../support/sandbox-faults.ts";
import { fault, STOREFRONT, testConfig, upstreamRequests, worker } from "./helpers.ts";

describe("GET /v1/currencies", () => {
  it("lists the service's currencies with amounts as decimal strings", async () => {
    const res = await worker("/v1/currencies", { headers: { origin: STOREFRONT } });
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: CryptoCurrency[] };
    expect(data.map((c) => c.code).sort()).toEqual(
      [
        "BNB",
        "BTC",
        "ETH",
        "ETH_BASE",
        "TRX",
        "USDC_BASE",
        "USDC_BEP20",
        "USDC_ERC20",
        "USDT_BEP20",
        "USDT_ERC20",
        "USDT_TRC20",
      ].sort(),
    );
    for (const c of data) {
      expect(typeof c.minDepositAmount).toBe("string");
      expect(typeof c.minWithdrawalAmount).toBe("string");
      expect(typeof c.depositCommission).toBe("string");
      expect(c.minDepositAmount).toMatch(/^\d+(\.\d+)?$/);
    }
    const usdtBsc = data.find((c) => c.code === "USDT_BEP20")!;
    expect(usdtBsc.decimalPlaces).toBe(18);
    expect(usdtBsc.contractAddress).toBeTruthy();
    expect(data.find((c) => c.code === "BTC")!.contractAddress).toBeNull();
    // One display name per network, whatever the service calls it.
    const names = Object.fromEntries(data.map((c) => [c.network, c.networkName]));
    expect(names).toEqual({
      BTC: "Bitcoin",
      Ethereum: "Ethereum",
      BNB: "BNB Smart Chain",
      Tron: "TRON",
      Base: "Base",
    });
  });

  it("filters by network and rejects a malformed network", async () => {
    const tron = (await (await worker("/v1/currencies?network=Tron")).json()) as {
      data: CryptoCurrency[];
    };
    expect(tron.data.map((c) => c.code).sort()).toEqual(["TRX", "USDT_TRC20"]);
    const bad = await worker("/v1/currencies?network=%3Cscript%3E");
    expect(bad.status).toBe(400);
  });

  it("lists fiat currencies with minimums as decimal strings", async () => {
    const { data } = (await (await worker("/v1/currencies/fiat")).json()) as {
      data: FiatCurrency[];
    };
    const usd = data.find((f) => f.code === "USD")!;
    expect(usd.decimalPlaces).toBe(2);
    expect(typeof usd.minInvoiceAmount).toBe("string");
  });

  it("makes at most one upstream call per cache period for 1,000 concurrent requests", async () => {
    await clearCatalogMemory();
    const before = (await upstreamRequests("/currencies")).length;
    const results = await Promise.all(
      Array.from({ length: 1000 }, () => worker("/v1/currencies?network=BNB")),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    await Promise.all(results.map((r) => r.body?.cancel()));
    const after = (await upstreamRequests("/currencies")).length;
    expect(after - before).toBeLessThanOrEqual(1);
  });
});

describe("currency cache period", () => {
  const fiatCalls = async () => (await upstreamRequests("/currencies/fiat")).length;

  it("expires every copy of a list one period after it was fetched, never later", async () => {
    const realNow = catalogClock.now;
    let now = Date.now() + 10 * CATALOG_TTL_MS; // past anything earlier tests cached
    catalogClock.now = () => now;
    try {
      await clearCatalogMemory();
      const start = await fiatCalls();
      expect((await worker("/v1/currencies/fiat")).status).toBe(200);
      expect(await fiatCalls()).toBe(start + 1);
      // Another isolate (empty memory) half a period later gets the shared copy…
      now += CATALOG_TTL_MS / 2;
      await clearCatalogMemory();
      expect((await worker("/v1/currencies/fiat")).status).toBe(200);
      expect(await fiatCalls()).toBe(start + 1);
      // …and its memory copy expires with the shared copy's fetch time, not a period later.
      now += CATALOG_TTL_MS / 2 + 1;
      expect((await worker("/v1/currencies/fiat")).status).toBe(200);
      expect(await fiatCalls()).toBe(start + 2);
    } finally {
      catalogClock.now = realNow;
      await clearCatalogMemory();
    }
  });

  it("a service failure behind the list's object still reaches the widget as service_busy", async () => {
    const realNow = catalogClock.now;
    catalogClock.now = () => Date.now() + 40 * CATALOG_TTL_MS; // past anything earlier tests cached
    try {
      await clearCatalogMemory({ shared: testConfig() });
      // Every attempt of the call fails (3 attempts), so the list cannot be had.
      await fault({
        path: "/currencies/fiat",
        method: "GET",
        mode: "status",
        status: 503,
        times: 3,
      });
      const res = await worker("/v1/currencies/fiat");
      expect(res.status).toBe(503);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("service_busy");
      // The failure is kept briefly (no retry storm), then the service is asked again.
      const calls = await fiatCalls();
      expect((await worker("/v1/currencies/fiat")).status).toBe(503);
      expect(await fiatCalls()).toBe(calls);
      const later = Date.now() + 40 * CATALOG_TTL_MS + CATALOG_FAILURE_TTL_MS + 1;
      catalogClock.now = () => later;
      expect((await worker("/v1/currencies/fiat")).status).toBe(200);
      expect(await fiatCalls()).toBe(calls + 1);
    } finally {
      catalogClock.now = realNow;
      await clearFaults();
      await clearCatalogMemory({ shared: testConfig() });
    }
  });

  it("isolates with no copy of their own (workers.dev: no Cache API) still share one call per period", async () => {
    const realNow = catalogClock.now;
    let now = Date.now() + 60 * CATALOG_TTL_MS; // past anything earlier tests cached
    catalogClock.now = () => now;
    try {
      await clearCatalogMemory({ shared: testConfig() });
      const start = await fiatCalls();
      expect((await worker("/v1/currencies/fiat")).status).toBe(200);
      expect(await fiatCalls()).toBe(start + 1);
      // Five more isolates within the period, each starting with neither memory nor the
      // colo's cache: the list's Durable Object answers, the service is not asked again.
      // Every Cache API lookup of theirs must miss (else the colo's cache answered, not the
      // object, and the clearing above did not make a workers.dev isolate).
      const cache = (caches as unknown as { default: Cache }).default;
      const match = cache.match;
      const lookups: boolean[] = [];
      cache.match = async (...args: Parameters<Cache["match"]>) => {
        const found = await match.apply(cache, args);
        lookups.push(found !== undefined);
        return found;
      };
      try {
        for (let i = 0; i < 5; i++) {
          now += CATALOG_TTL_MS / 10;
          await clearCatalogMemory({ shared: testConfig() });
          const res = await worker("/v1/currencies/fiat");
          expect(res.status).toBe(200);
          expect(((await res.json()) as { data: FiatCurrency[] }).data.length).toBeGreaterThan(0);
        }
      } finally {
        cache.match = match;
      }
      expect(lookups).toEqual([false, false, false, false, false]);
      expect(await fiatCalls()).toBe(start + 1);
      // Once the period is over, one new call.
      now += CATALOG_TTL_MS;
      await clearCatalogMemory({ shared: testConfig() });
      expect((await worker("/v1/currencies/fiat")).status).toBe(200);
      expect(await fiatCalls()).toBe(start + 2);
    } finally {
      catalogClock.now = realNow;
      await clearCatalogMemory({ shared: testConfig() });
    }
  });
});

describe("a network value is a filter, never an upstream call (issue 20, item 1)", () => {
  const cryptoCalls = async () => (await upstreamRequests("/currencies")).length;
  const codes = async (network: string) => {
    const res = await worker(`/v1/currencies?network=${encodeURIComponent(network)}`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: CryptoCurrency[] }).data.map((c) => c.code).sort();
  };

  it("200 distinct network values cost one upstream GET /currencies and no object per value", async () => {
    const realNow = catalogClock.now;
    catalogClock.now = () => Date.now() + 80 * CATALOG_TTL_MS; // past anything earlier tests cached
    try {
      await clearCatalogMemory({ shared: testConfig() });
      const objectsBefore = (await listDurableObjectIds(env.CATALOG)).length;
      const start = await cryptoCalls();
      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, i) => codes(`Attacker net ${i}`)),
      );
      // A network the service does not list: an empty list, from the one cached full list.
      expect(answers.every((list) => list.length === 0)).toBe(true);
      for (let i = 0; i < 50; i++) expect(await codes(`later-${i}`)).toEqual([]);
      // Networks the service lists still filter, in any case.
      expect(await codes("Tron")).toEqual(["TRX", "USDT_TRC20"]);
      expect(await codes("tRoN")).toEqual(["TRX", "USDT_TRC20"]);
      expect(await codes("BNB")).toEqual(["BNB", "USDC_BEP20", "USDT_BEP20"]);
      const calls = (await upstreamRequests("/currencies")).slice(start);
      expect(calls).toHaveLength(1);
      expect(calls[0]!.query.network).toBeUndefined();
      // At most the crypto list's own object is new: none per network value.
      expect((await listDurableObjectIds(env.CATALOG)).length - objectsBefore).toBeLessThanOrEqual(
        1,
      );
    } finally {
      catalogClock.now = realNow;
      await clearCatalogMemory({ shared: testConfig() });
    }
  });

  it("while the service fails, many network values cost one call per failure period", async () => {
    const realNow = catalogClock.now;
    let now = Date.now() + 100 * CATALOG_TTL_MS; // past anything earlier tests cached
    catalogClock.now = () => now;
    try {
      await clearCatalogMemory({ shared: testConfig() });
      await fault({ path: "/currencies", method: "GET", mode: "status", status: 503, times: 50 });
      const start = await cryptoCalls();
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => worker(`/v1/currencies?network=down${i}`)),
      );
      for (const res of answers) {
        expect(res.status).toBe(503);
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe("service_busy");
      }
      // One call (the client's own attempts of it: at most 3), not one per value.
      const failing = (await cryptoCalls()) - start;
      expect(failing).toBeGreaterThanOrEqual(1);
      expect(failing).toBeLessThanOrEqual(3);
      // Another isolate, within the failure period: the object's failure is reused.
      now += CATALOG_FAILURE_TTL_MS / 2;
      await clearCatalogMemory({ shared: testConfig() });
      expect((await worker("/v1/currencies?network=again")).status).toBe(503);
      expect((await cryptoCalls()) - start).toBe(failing);
      // Once the failure period is over, the service is asked again (and answers).
      await clearFaults();
      now += CATALOG_FAILURE_TTL_MS;
      expect(await codes("Tron")).toEqual(["TRX", "USDT_TRC20"]);
      expect((await cryptoCalls()) - start).toBe(failing + 1);
    } finally {
      catalogClock.now = realNow;
      await clearFaults();
      await clearCatalogMemory({ shared: testConfig() });
    }
  });
});

describe("the lists' query: network only, each key once", () => {
  it.each([
    ["/v1/currencies?foo=1", "Unknown query parameter: foo."],
    ["/v1/currencies/fiat?network=Tron", "Unknown query parameter: network."],
    ["/v1/currencies?network=Tron&network=BSC", "Repeated query parameter: network."],
    ["/v1/currencies?network=%3Cscript%3E", "network must be a network name such as Tron."],
    // A prototype's name is an unknown key like any other, never the query object's prototype.
    ["/v1/currencies?__proto__=x", "Unknown query parameter: __proto__."],
  ])("%s → 400 validation_failed: %s", async (path, message) => {
    const res = await worker(path, { headers: { origin: STOREFRONT } });
    expect(res.status).toBe(400);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({ error: { code: "validation_failed", message } });
  });

  it("a list without a query (its verdict is kept) still refuses a bad query after it", async () => {
    const plain = await worker("/v1/currencies", { headers: { origin: STOREFRONT } });
    expect(plain.status).toBe(200);
    // An empty query string is no query: the same answer as none.
    const bare = await worker("/v1/currencies?", { headers: { origin: STOREFRONT } });
    expect(bare.status).toBe(200);
    expect(await bare.json()).toEqual(await plain.json());
    const bad = await worker("/v1/currencies?netwrok=Tron", { headers: { origin: STOREFRONT } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      error: { code: "validation_failed", message: "Unknown query parameter: netwrok." },
    });
  });
});
