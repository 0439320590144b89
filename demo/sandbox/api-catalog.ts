/**
 * @module api-catalog
 * Read-only public routes: GET /currencies (`?network=`, case-insensitive), GET
 * /currencies/fiat and GET /accounts.
 */
import type { Hono } from "hono";
import { listAccounts } from "./accounts.ts";
import {
  CRYPTO_CURRENCIES,
  type CryptoCurrency,
  FIAT_CURRENCIES,
  TENANT_DEPOSIT_COMMISSION,
} from "./currencies.ts";
import { Dec } from "./decimal.ts";
import type { SandboxState } from "./state.ts";
import { dataResponse } from "./wire.ts";

/**
 * One GET /currencies entry (SDK `MerchantCurrency`); amounts as exact decimals, the fee quote
 * timestamped, `tokenType` absent on a native coin (the SDK omits it there; `contractAddress`
 * is null instead) and the tenant's one effective `depositCommission` on every row.
 * @example
 * currencyView(CRYPTO_CURRENCIES[0]!, "2025-01-01T00:00:00.000Z").minDepositAmount; // Dec("0.0001")
 */
export function currencyView(c: CryptoCurrency, quotedAt: string) {
  return {
    code: c.code,
    name: c.name,
    network: c.network,
    tokenType: c.tokenType ?? undefined,
    decimalPlaces: c.decimalPlaces,
    minDepositAmount: new Dec(c.minDepositAmount),
    depositNetworkFee:
      c.depositNetworkFee === null ? null : { amount: new Dec(c.depositNetworkFee), quotedAt },
    minWithdrawalAmount: new Dec(c.minWithdrawalAmount),
    depositCommission: new Dec(TENANT_DEPOSIT_COMMISSION),
    contractAddress: c.contractAddress,
    imageUrl: null,
    addressMask: c.addressMask,
  };
}

/**
 * Registers the catalogue routes.
 * @example
 * registerCatalog(app, state);
 */
export function registerCatalog(app: Hono, state: SandboxState): void {
  app.get("/currencies", (c) => {
    const network = c.req.query("network")?.toLowerCase();
    const list = CRYPTO_CURRENCIES.filter((x) => !network || x.network.toLowerCase() === network);
    return dataResponse(list.map((x) => currencyView(x, state.createdAt)));
  });
  app.get("/currencies/fiat", () =>
    dataResponse(
      FIAT_CURRENCIES.map((f) => ({
        code: f.code,
        name: f.name,
        decimalPlaces: f.decimalPlaces,
        minInvoiceAmount: new Dec(f.minInvoiceAmount),
      })),
    ),
  );
  app.get("/accounts", () => dataResponse(listAccounts(state)));
}
