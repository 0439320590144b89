/**
 * @module
 * The order export's CSV (RFC 4180): a header of `OrderSummary`'s keys, one line per order,
 * CRLF line ends; a field with a comma, a quote, CR or LF is quoted, quotes doubled. Amounts
 * go out exactly as the decimal strings the index holds (never through a number).
 */
import { ORDER_CSV_COLUMNS, type OrderSummary } from "../../lib/api/merchant-ops.ts";

/** One field, quoted when RFC 4180 needs it; null is the empty field. */
export function csvField(value: string | number | null): string {
  if (value === null) return "";
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
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
  return `${ORDER_CSV_COLUMNS.map((k) => csvField(order[k])).join(",")}\r\n`;
}
