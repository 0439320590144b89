/**
 * @module withdrawal-quotes
 * POST /withdrawal/quote: validation, the fee breakdown (on-chain fee in the base coin and in
 * the withdrawal currency, rounded UP), stablecoin auto-convert at 1:1 without commission, and
 * the (accountId, orderId) collapse: same unexpired quote → itself; expired and uncommitted →
 * a fresh quote with a new quoteId; committed → 409. A quote lives `quoteLifetimeMs` (default
 * 60 s) and can be expired at once by the admin helper. A quote reserves no balance.
 */
import { requireAccount } from "./accounts.ts";
import { balanceOf } from "./balances.ts";
import { CRYPTO_CURRENCIES, type CryptoCurrency, cryptoCurrency } from "./currencies.ts";
import { Dec, type Decimal, decimalPlaces, roundUp } from "./decimal.ts";
import { optionalBool, readSignedAmount, requiredString } from "./fields.ts";
import { convertCrypto, cryptoToUsd } from "./rates.ts";
import {
  type AutoConvert,
  isoAfter,
  nowIso,
  type QuoteRecord,
  type SandboxState,
} from "./state.ts";
import { invalidBody, WireError } from "./wire.ts";

/** A validated quote request. */
export interface QuoteRequest {
  accountId: string;
  currency: CryptoCurrency;
  address: string;
  amount: Decimal;
  orderId: string;
  allowAutoConvert: boolean;
}

function err(status: number, reason: string, message: string): WireError {
  return new WireError(status, `exceptions.withdrawal.${reason}`, message);
}

/**
 * Validates a POST /withdrawal/quote body.
 * @example
 * parseQuoteRequest(state, { accountId, cryptoCurrencyCode: "TRX", address, amount, orderId });
 */
export function parseQuoteRequest(
  state: SandboxState,
  body: Record<string, unknown>,
): QuoteRequest {
  const accountId = requiredString(body, "accountId");
  const orderId = requiredString(body, "orderId");
  const code = requiredString(body, "cryptoCurrencyCode");
  const address = requiredString(body, "address");
  const amount = readSignedAmount(body, "amount");
  if (amount === null) throw invalidBody("amount is required");
  requireAccount(state, accountId, "exceptions.withdrawal.tenantAccountNotFound");
  if (amount.lte("0")) throw err(400, "amountMustBePositive", "amount must be above 0");
  const currency = cryptoCurrency(code);
  if (!currency) throw err(400, "currencyNotFound", `Unknown currency ${code}`);
  if (!new RegExp(currency.addressMask).test(address)) {
    throw err(400, "invalidAddress", `Not a valid ${currency.network} address`);
  }
  if (decimalPlaces(amount) > currency.decimalPlaces) {
    throw err(400, "amountInvalidDecimalPlaces", `${code} allows ${currency.decimalPlaces} places`);
  }
  if (amount.lt(currency.minWithdrawalAmount)) {
    throw err(400, "amountBelowMinimum", `Minimum withdrawal is ${currency.minWithdrawalAmount}`);
  }
  const allowAutoConvert = optionalBool(body, "allowAutoConvert") ?? false;
  return { accountId, currency, address, amount, orderId, allowAutoConvert };
}

function autoConvertFor(
  state: SandboxState,
  to: CryptoCurrency,
  total: Decimal,
): AutoConvert | null {
  const shortfall = total.minus(balanceOf(state, to.code));
  if (!to.stablecoin || shortfall.lte("0")) return null;
  for (const from of CRYPTO_CURRENCIES) {
    if (!from.stablecoin || from.code === to.code) continue;
    const amount = roundUp(shortfall, Math.min(from.decimalPlaces, to.decimalPlaces));
    if (balanceOf(state, from.code).gte(amount)) {
      return {
        fromAssetCode: from.code,
        toAssetCode: to.code,
        fromAmount: amount,
        toAmount: amount,
      };
    }
  }
  return null;
}

/**
 * The quote for a request: the existing one for (accountId, orderId) while unexpired, or a new
 * one. Synchronous, so concurrent identical requests collapse to one quote. An orderId is bound
 * to its terms: a repeat with another currency, address or amount is 409
 * `exceptions.withdrawal.orderIdAlreadyExists` (*assumed*: the public sources do not say what a
 * repeat with other terms gets), never the old quote for terms the caller did not ask for.
 * @example
 * const { quote, created } = quoteWithdrawal(state, parseQuoteRequest(state, body));
 */
export function quoteWithdrawal(state: SandboxState, req: QuoteRequest) {
  const key = `${req.accountId}|${req.orderId}`;
  const existing = state.quotes.get(state.quoteIdByOrderKey.get(key) ?? "");
  if (existing?.withdrawalId) {
    throw err(409, "orderIdAlreadyExists", "A withdrawal was already committed for this orderId");
  }
  const sameTerms =
    existing?.cryptoCurrencyCode === req.currency.code &&
    existing.address === req.address &&
    existing.amount.eq(req.amount);
  if (existing && !sameTerms) {
    const was = `${existing.amount.toFixed()} ${existing.cryptoCurrencyCode} to ${existing.address}`;
    throw err(409, "orderIdAlreadyExists", `This orderId was already quoted as ${was}`);
  }
  if (existing && Date.parse(existing.expiresAt) > state.now().getTime()) {
    return { quote: existing, created: false };
  }
  const cur = req.currency;
  const base = cryptoCurrency(cur.baseCoin)!;
  const feeNative = new Dec(cur.withdrawalFeeNative);
  const feeInCryptoCurrencyCode =
    cur.code === base.code
      ? feeNative
      : convertCrypto(feeNative, base.code, cur.code, cur.decimalPlaces);
  const totalDeduction = req.amount.plus(feeInCryptoCurrencyCode);
  const quote: QuoteRecord = {
    quoteId: crypto.randomUUID(),
    orderId: req.orderId,
    accountId: req.accountId,
    cryptoCurrencyCode: cur.code,
    address: req.address,
    amount: req.amount,
    autoConvert: req.allowAutoConvert ? autoConvertFor(state, cur, totalDeduction) : null,
    totalDeduction,
    fee: {
      feeNative,
      feeCurrency: base.code,
      feeInCryptoCurrencyCode,
      feeUsd: cryptoToUsd(feeNative, base.code),
    },
    expiresAt: isoAfter(state, state.options.quoteLifetimeMs),
    createdAt: nowIso(state),
    withdrawalId: null,
  };
  state.quotes.set(quote.quoteId, quote);
  state.quoteIdByOrderKey.set(key, quote.quoteId);
  return { quote, created: true };
}

/**
 * The quote object as POST /withdrawal/quote returns it (SDK `WithdrawalQuote`: no accountId).
 * @example
 * quoteView(q).totalDeduction;
 */
export function quoteView(q: QuoteRecord) {
  const { quoteId, orderId, cryptoCurrencyCode, address, amount } = q;
  const { autoConvert, totalDeduction, fee, expiresAt } = q;
  return {
    ...{ quoteId, orderId, cryptoCurrencyCode, address, amount },
    ...{ autoConvert, totalDeduction, fee, expiresAt },
  };
}

/**
 * Finds a quote by quoteId, or the account's current quote for an orderId (admin helpers).
 * @example
 * findQuoteByRef(state, "wd-1").quoteId;
 */
export function findQuoteByRef(state: SandboxState, ref: string): QuoteRecord {
  const byOrder = state.quoteIdByOrderKey.get(`${state.options.accountId}|${ref}`);
  const q = state.quotes.get(ref) ?? state.quotes.get(byOrder ?? "");
  if (!q) throw err(404, "notFound", "Quote not found");
  return q;
}

/**
 * Ends an uncommitted quote's life now (admin helper), as if `quoteLifetimeMs` had passed:
 * committing it is then 409 `quoteExpired`, and quoting its orderId again gives a new quoteId.
 * A committed quote is 409 `exceptions.sandbox.invalidTransition`.
 * @example
 * expireQuote(state, findQuoteByRef(state, "wd-1")).expiresAt; // now
 */
export function expireQuote(state: SandboxState, q: QuoteRecord): QuoteRecord {
  if (q.withdrawalId) {
    const msg = "This quote is committed; only an uncommitted quote can expire";
    throw new WireError(409, "exceptions.sandbox.invalidTransition", msg);
  }
  if (Date.parse(q.expiresAt) > state.now().getTime()) q.expiresAt = nowIso(state);
  return q;
}
