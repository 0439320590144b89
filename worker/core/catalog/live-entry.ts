/**
 * @module
 * What a route asks of the live lists (`catalog.ts`): a list, or the crypto currency a request
 * named. A list the service cannot give now answers as every upstream failure does
 * (`service/upstream-failure.ts`: 503 `service_busy`, …); a code not in the live list is 400
 * `currency_unavailable`, the code the service's own `currencyNotFound` maps to, so a crypto
 * currency missing here or refused there answers the same (`unknown_currency` is the token's
 * fiat currency: the shop's to fix, where `currency_unavailable` leaves the shopper another
 * currency to choose). Either way nothing else is called.
 */
import type { CryptoCurrency } from "../../../packages/contract/src/http-api.ts";
import { ApiError } from "../../lib/api-error.ts";
import type { Logger } from "../../lib/log.ts";
import { unwrap } from "../../lib/outcome/outcome.ts";
import { upstreamFailure } from "../../service/upstream-failure.ts";
import type { Config } from "../config/config.ts";
import { cryptoCurrencies } from "./catalog.ts";

/**
 * The list `read` gives, or throws the `ApiError` of the service's failure.
 *
 * @example
 * const fiats = await liveList(fiatCurrencies, config, log);
 */
export async function liveList<T>(
  read: (config: Config) => Promise<T>,
  config: Config,
  log: Logger,
): Promise<T> {
  try {
    return await read(config);
  } catch (error) {
    return unwrap(upstreamFailure(error, log));
  }
}

/**
 * The live crypto currency `code`, or 400 `currency_unavailable` naming what it is not available
 * for (`"payouts"`, `"this checkout"`).
 *
 * @example
 * const currency = await cryptoEntry(config, log, "USDT_TRC20", "payouts");
 */
export async function cryptoEntry(
  config: Config,
  log: Logger,
  code: string,
  forWhat: string,
): Promise<CryptoCurrency> {
  const entry = (await liveList(cryptoCurrencies, config, log)).find((c) => c.code === code);
  if (!entry)
    throw new ApiError(400, "currency_unavailable", `${code} is not available for ${forWhat}.`);
  return entry;
}
