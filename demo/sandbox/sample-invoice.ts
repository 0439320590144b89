/**
 * @module sample-invoice
 * The invoice the test webhook (`POST /sandbox/test-webhook`, the admin panel's "Send test
 * webhook") is about: a whole paid invoice, settled and with every field a real delivery has,
 * so a receiver sees the same shape as from a real payment. It is never stored: no GET finds
 * it, and its id (`test-…`) and orderId (`test-webhook`) name nothing of a client's.
 */
import { newAddress, newTxHash } from "./addresses.ts";
import { cryptoCurrency } from "./currencies.ts";
import { Dec } from "./decimal.ts";
import { DEFAULT_SIMULATION_CURRENCY } from "./invoice-payment.ts";
import { invoiceView } from "./invoice-status.ts";
import { fiatToCrypto } from "./rates.ts";
import { settle } from "./settlement.ts";
import { isoAfter, nowIso, type SandboxState } from "./state.ts";

/** What the sample invoice asks for: 10 USD, paid in full in the simulation's currency. */
const SAMPLE_AMOUNT = "10";

/**
 * The `data` of a test `invoice.statusChanged` delivery: a paid invoice exactly as
 * `invoiceView` renders one, plus `previousStatus: "processing"`.
 * @example
 * const data = await sampleInvoiceData(state, "http://127.0.0.1:8788");
 * data.status; // "paid"
 */
export async function sampleInvoiceData(state: SandboxState, origin: string) {
  const cur = cryptoCurrency(DEFAULT_SIMULATION_CURRENCY)!;
  const id = `test-${crypto.randomUUID()}`;
  const amount = new Dec(SAMPLE_AMOUNT);
  const cryptoAmount = fiatToCrypto(amount, "USD", cur.code, cur.decimalPlaces);
  const txHash = newTxHash(cur.network);
  const at = nowIso(state);
  const invoice = {
    id,
    accountId: state.options.accountId,
    orderId: "test-webhook",
    amount,
    fiatCurrencyCode: "USD",
    items: null,
    status: "paid" as const,
    cryptoCurrencyCode: cur.code,
    cryptoAmountExpected: cryptoAmount,
    cryptoAmountReceived: cryptoAmount,
    address: await newAddress(cur.network),
    txHash,
    settlement: settle(cur, cryptoAmount, txHash, at),
    expiresAt: isoAfter(state, 60 * 60_000),
    invoiceExpiresAt: isoAfter(state, 60 * 60_000),
    createdAt: at,
    paidAt: at,
    paymentPageUrl: `${origin}/pay/${id}`,
    customPayload: null,
    description: "Test webhook",
    number: null,
    webhookUrl: null,
    returnUrl: null,
    successUrl: null,
    failedUrl: null,
    customerId: null,
    creditedNet: new Dec("0"),
  };
  return { ...invoiceView(invoice), previousStatus: "processing" };
}
