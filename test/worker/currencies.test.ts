import { describe, expect, it } from "vitest";
import type { CryptoCurrency, FiatCurrency } from "../../worker/api/contract.ts";
import { clearCatalogMemory } from "../../worker/checkout/catalog.ts";
import { STOREFRONT, upstreamRequests, worker } from "./helpers.ts";

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
        "TRX",
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
    clearCatalogMemory();
    const before = (await upstreamRequests("/currencies")).filter(
      (r) => r.query.network === "BNB",
    ).length;
    const results = await Promise.all(
      Array.from({ length: 1000 }, () => worker("/v1/currencies?network=BNB")),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    await Promise.all(results.map((r) => r.body?.cancel()));
    const after = (await upstreamRequests("/currencies")).filter(
      (r) => r.query.network === "BNB",
    ).length;
    expect(after - before).toBeLessThanOrEqual(1);
  });
});
