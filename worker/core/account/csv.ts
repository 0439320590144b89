/**
 * @module
 * The order export's CSV (RFC 4180): a header of `OrderSummary`'s keys, one line per order,
 * CRLF line ends; a field with a comma, a quote, CR or LF is quoted, quotes doubled. Amounts
 * go out exactly as the decimal strings the index holds (never through a number).
 *
 * A text field that a spreadsheet would read as a formula (it starts with `=`, `+`, `-`, `@`,
 * TAB or CR: OWASP's CSV injection guidance) is written with a `'` before it, so it opens as
 * text. Invoice numbers come from the merchant's token `sub`, which allows `-`: `-A1-B1` would
 * otherwise be a formula. Amount and count columns are never prefixed: they hold numbers the
 * index wrote, and a `'` would turn them into text.
 */
import { ORDER_CSV_COLUMNS, type OrderSummary } from "../../lib/api/merchant-ops.ts";

/** The columns that hold numbers: written exactly as stored, never neutralised. */
const NUMBER_COLUMNS: ReadonlySet<keyof OrderSummary> = new Set([
  "amount",
  "amountPaid",
  "cryptoAmountReceived",
  "attempts",
] as const);

/** A cell starting with one of these is a formula to Excel, LibreOffice and Google Sheets. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One field, quoted when RFC 4180 needs it; null is the empty field. A `text` field that
 * starts like a formula gets a leading `'` first.
 *
 * @example
 * csvField("-A1-B1", true); // "'-A1-B1"
 * csvField("-0.5", false); // "-0.5"
 */
export function csvField(value: string | number | null, text: boolean): string {
  if (value === null) return "";
  let field = String(value);
  if (text && FORMULA_START.test(field)) field = `'${field}`;
  return /[",\r\n]/.test(field) ? `"${field.replace(/"/g, '""')}"` : field;
}

/** The header line. */
export const CSV_HEADER = `${ORDER_CSV_COLUMNS.join(",")}\r\n`;

/**
 * One order's line.
 *
 * @example
 * csvLine(summary); // "1001,paid,49.90,USD,49.90,USDT_TRC20,49.900000,paid,1,…\r\n"
 */
export function csvLine(order: OrderSummary): string {
  return `${ORDER_CSV_COLUMNS.map((k) => csvField(order[k], !NUMBER_COLUMNS.has(k))).join(",")}\r\n`;
}
