/**
 * @module
 * The catalogue entry of the currency an invoice read names. In hosted mode the payer chooses
 * on the service's page, so the worker first meets the choice in an invoice read (webhook or
 * reconciliation) and needs the entry (network, decimals, contract) for the widget's
 * instructions and wallet link.
 *
 * Invariant: never throws. A list the service cannot give now, or a code it does not list,
 * gives null, and the next read tries again; the money facts are applied either way.
 */
import type { CryptoCurrency } from "../api/contract.ts";
import { cryptoCurrencies } from "../checkout/catalog.ts";
import type { Config } from "../config/config.ts";
import type { Invoice } from "../upstream/client.ts";

/**
 * `known` when it is the invoice's currency (or the invoice names none), else the entry from
 * the (cached) currency list, or null.
 *
 * @example
 * const currency = await invoiceCurrency(config, invoice, attempt.currency);
 */
export async function invoiceCurrency(
  config: Config,
  invoice: Invoice,
  known: CryptoCurrency | null,
): Promise<CryptoCurrency | null> {
  const code = invoice.cryptoCurrencyCode;
  if (!code || known?.code === code) return known;
  try {
    return (await cryptoCurrencies(config)).find((c) => c.code === code) ?? null;
  } catch {
    return null;
  }
}
