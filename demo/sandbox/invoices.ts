/**
 * @module invoices
 * Invoice creation (validation, orderId idempotency), lookup, listing and cancellation.
 * Creation is synchronous after the body is read: the orderId lookup and the insert never
 * straddle an await, so concurrent identical requests yield one invoice.
 */
import { requireAccount } from "./accounts.ts";
import { fiatCurrency } from "./currencies.ts";
import { Dec, type Decimal, decimalPlaces, parseDecimalString } from "./decimal.ts";
import {
  optionalInt,
  optionalString,
  optionalUrl,
  readAmount,
  readSignedAmount,
  requiredString,
} from "./fields.ts";
import { canMove, expireDue, moveInvoice } from "./invoice-status.ts";
import {
  type InvoiceItem,
  type InvoiceRecord,
  isoAfter,
  nowIso,
  type SandboxState,
} from "./state.ts";
import { invalidBody, invalidQuery, RawNumber, WireError } from "./wire.ts";

type Body = Record<string, unknown>;

function readItems(body: Body): InvoiceItem[] | null {
  const raw = body.items;
  if (raw === undefined || raw === null) return null;
  if (!Array.isArray(raw) || raw.length === 0) throw invalidBody("items must be a non-empty array");
  return raw.map((item, i) => {
    if (item === null || typeof item !== "object")
      throw invalidBody(`items[${i}] must be an object`);
    const it = item as Body;
    const name = requiredString(it, "name");
    // A JSON number, like every count and amount on the wire (a string is a 400).
    const q = it.quantity;
    const qText = q instanceof RawNumber ? q.source : "";
    const quantity = /^[1-9]\d*$/.test(qText) ? parseDecimalString(qText) : null;
    if (quantity === null) throw invalidBody(`items[${i}].quantity must be a positive integer`);
    const cost = readAmount(it, "cost");
    if (cost === null) throw invalidBody(`items[${i}].cost is required`);
    return { name, quantity, cost };
  });
}

function amountOf(body: Body, items: InvoiceItem[] | null): Decimal {
  // Signed: a negative amount is below the minimum (the published code), checked by the caller.
  const amount = readSignedAmount(body, "amount");
  const sum = items?.reduce((acc, it) => acc.plus(it.cost.times(it.quantity)), new Dec("0"));
  if (amount === null && sum === undefined) {
    throw new WireError(400, "exceptions.invoice.amountOrItemsRequired", "Give amount or items");
  }
  // SDK 1.4.0 (`CreateInvoiceParams`): a given amount is the total even when items are sent;
  // the items make the total only when amount is omitted.
  return (amount ?? sum) as Decimal;
}

/**
 * Creates an invoice, or returns the original for a repeated orderId (`created: false`).
 * @example
 * const { invoice, created } = createInvoice(state, body, "http://127.0.0.1:8788");
 */
export function createInvoice(state: SandboxState, body: Body, origin: string) {
  const accountId = requiredString(body, "accountId");
  requireAccount(state, accountId);
  const fiatCode = requiredString(body, "fiatCurrencyCode");
  const fiat = fiatCurrency(fiatCode);
  if (!fiat) {
    throw new WireError(400, "exceptions.invoice.fiatCurrencyNotFound", `Unknown fiat ${fiatCode}`);
  }
  const orderId = optionalString(body, "orderId");
  if (orderId !== null && orderId.trim() === "") throw invalidBody("orderId must not be empty");
  const items = readItems(body);
  const amount = amountOf(body, items);
  const tooPrecise = [amount, ...(items ?? []).map((i) => i.cost)].some(
    (a) => decimalPlaces(a) > fiat.decimalPlaces,
  );
  if (tooPrecise) {
    throw new WireError(
      400,
      "exceptions.invoice.amountInvalidDecimalPlaces",
      `${fiat.code} allows ${fiat.decimalPlaces} decimal places`,
    );
  }
  if (amount.lt(fiat.minInvoiceAmount)) {
    throw new WireError(
      400,
      "exceptions.invoice.amountBelowMinimum",
      `Minimum invoice amount is ${fiat.minInvoiceAmount} ${fiat.code}`,
    );
  }
  const expiresIn = optionalInt(body, "expiresInMinutes", 1, 43_200) ?? 60;
  const optional = {
    customPayload: optionalString(body, "customPayload"),
    description: optionalString(body, "description"),
    number: optionalString(body, "number"),
    customerId: optionalString(body, "customerId"),
    webhookUrl: optionalUrl(body, "webhookUrl"),
    returnUrl: optionalUrl(body, "returnUrl"),
    successUrl: optionalUrl(body, "successUrl"),
    failedUrl: optionalUrl(body, "failedUrl"),
  };
  // From here to the insert: no await (idempotency must be race-free).
  if (orderId !== null) {
    const existing = state.invoices.get(state.invoiceIdByOrderId.get(orderId) ?? "");
    if (existing) {
      if (existing.amount.eq(amount) && existing.fiatCurrencyCode === fiat.code) {
        return { invoice: existing, created: false };
      }
      throw new WireError(
        409,
        "exceptions.invoice.orderIdAlreadyExists",
        "orderId already used with a different amount or currency",
      );
    }
  }
  const id = crypto.randomUUID();
  const expiresAt = isoAfter(state, expiresIn * 60_000);
  const invoice: InvoiceRecord = {
    id,
    accountId,
    orderId,
    amount,
    fiatCurrencyCode: fiat.code,
    items,
    status: "created",
    cryptoCurrencyCode: null,
    cryptoAmountExpected: null,
    cryptoAmountReceived: null,
    address: null,
    txHash: null,
    settlement: null,
    expiresAt,
    invoiceExpiresAt: expiresAt,
    createdAt: nowIso(state),
    paidAt: null,
    paymentPageUrl: `${origin}/pay/${id}`,
    creditedNet: new Dec("0"),
    ...optional,
  };
  state.invoices.set(id, invoice);
  if (orderId !== null) state.invoiceIdByOrderId.set(orderId, id);
  return { invoice, created: true };
}

/**
 * Finds an invoice by `id` or `orderId` (query style), after the account check.
 * @example
 * findInvoice(state, new URLSearchParams({ accountId, id }));
 */
export function findInvoice(state: SandboxState, q: URLSearchParams): InvoiceRecord {
  const accountId = q.get("accountId");
  if (!accountId) throw invalidQuery("accountId is required");
  requireAccount(state, accountId);
  expireDue(state);
  const id = q.get("id");
  const orderId = q.get("orderId");
  if (id) {
    const inv = state.invoices.get(id);
    if (!inv) throw new WireError(404, "exceptions.invoice.notFound", "Invoice not found");
    return inv;
  }
  if (orderId) {
    const inv = state.invoices.get(state.invoiceIdByOrderId.get(orderId) ?? "");
    if (!inv) {
      throw new WireError(404, "exceptions.invoice.notFoundByOrderId", "No invoice for orderId");
    }
    return inv;
  }
  throw invalidQuery("id or orderId is required");
}

/**
 * Finds an invoice by id or orderId for the admin helpers (no account check).
 * @example
 * findInvoiceByRef(state, "shop-1001");
 */
export function findInvoiceByRef(state: SandboxState, ref: string): InvoiceRecord {
  expireDue(state);
  const inv =
    state.invoices.get(ref) ?? state.invoices.get(state.invoiceIdByOrderId.get(ref) ?? "");
  if (!inv) throw new WireError(404, "exceptions.invoice.notFound", "Invoice not found");
  return inv;
}

/**
 * Cancels an invoice still in `created`; otherwise 409 `exceptions.invoice.cannotCancel`.
 * @example
 * await cancelInvoice(state, inv);
 */
export function cancelInvoice(state: SandboxState, inv: InvoiceRecord) {
  if (!canMove(inv.status, "cancelled")) {
    throw new WireError(409, "exceptions.invoice.cannotCancel", `Invoice is ${inv.status}`);
  }
  return moveInvoice(state, inv, "cancelled");
}
