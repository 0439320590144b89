/**
 * @module rates
 * Fixed sandbox exchange rates. The real service publishes no rates endpoint; the sandbox needs
 * rates only to turn a fiat invoice into a crypto amount and to fill the `*Usd` fields.
 */
import { cryptoCurrency } from "./currencies.ts";
import { Dec, type Decimal, divRoundUp, roundHalfUp } from "./decimal.ts";

/** USD per 1 coin. */
const USD_PER_COIN: Record<string, string> = {
  BTC: "65000",
  ETH: "3200",
  BNB: "580",
  TRX: "0.12",
  USDT_ERC20: "1",
  USDC_ERC20: "1",
  USDT_BEP20: "1",
  USDC_BEP20: "1",
  USDT_TRC20: "1",
  ETH_BASE: "3200",
  USDC_BASE: "1",
};

/** USD per 1 unit of fiat (fixed cross rates). */
const USD_PER_FIAT: Record<string, string> = {
  USD: "1",
  EUR: "1.08",
  GBP: "1.27",
  JPY: "0.0067",
  CHF: "1.12",
};

/**
 * USD value of one coin.
 * @example
 * usdPerCoin("BTC").toFixed(); // "65000"
 */
export function usdPerCoin(code: string): Decimal {
  // The extra currency (`SANDBOX_EXTRA_CURRENCY`) is priced as a USD stablecoin.
  const r = USD_PER_COIN[code] ?? (cryptoCurrency(code)?.stablecoin ? "1" : undefined);
  if (r === undefined) throw new Error(`no sandbox rate for ${code}`);
  return new Dec(r);
}

/**
 * USD value of one fiat unit.
 * @example
 * usdPerFiat("EUR").toFixed(); // "1.08"
 */
export function usdPerFiat(code: string): Decimal {
  const r = USD_PER_FIAT[code];
  if (r === undefined) throw new Error(`no sandbox rate for ${code}`);
  return new Dec(r);
}

/**
 * Crypto amount for a fiat amount: fiat × USD/fiat ÷ USD/coin, rounded UP to `dp`.
 * @example
 * fiatToCrypto(new Dec("10"), "USD", "BNB", 18).toFixed(); // "0.017241379310344828"
 */
export function fiatToCrypto(amount: Decimal, fiat: string, coin: string, dp: number): Decimal {
  return divRoundUp(amount.times(usdPerFiat(fiat)), usdPerCoin(coin), dp);
}

/**
 * Converts `amount` of coin `from` into coin `to`, rounded UP to `dp`.
 * @example
 * convertCrypto(new Dec("13.5"), "TRX", "USDT_TRC20", 6).toFixed(); // "1.62"
 */
export function convertCrypto(amount: Decimal, from: string, to: string, dp: number): Decimal {
  return divRoundUp(amount.times(usdPerCoin(from)), usdPerCoin(to), dp);
}

/**
 * USD value of a crypto amount, rounded half-up to cents.
 * @example
 * cryptoToUsd(new Dec("0.001"), "BTC").toFixed(); // "65"
 */
export function cryptoToUsd(amount: Decimal, coin: string): Decimal {
  return roundHalfUp(amount.times(usdPerCoin(coin)), 2);
}
