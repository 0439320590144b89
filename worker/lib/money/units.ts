/**
 * @module
 * Conversion between decimal amounts and integer base units (satoshi, wei, sun, …).
 * Exact in both directions: a conversion that would lose a digit throws instead.
 */
import { assertDp } from "./arith.ts";
import { parseFixed } from "./canonical.ts";
import { plainText } from "./fixed.ts";

/**
 * Amount in base units for a currency with `dp` decimal places. Throws `RangeError` when the
 * amount has more than `dp` significant decimals (never rounds).
 *
 * @example
 * toBaseUnits("1.5", 18); // 1500000000000000000n
 * toBaseUnits("0.1234567", 6); // throws RangeError
 */
export function toBaseUnits(s: string, dp: number): bigint {
  assertDp(dp);
  const canonical = plainText(parseFixed(s));
  const negative = canonical.startsWith("-");
  const [int = "0", frac = ""] = (negative ? canonical.slice(1) : canonical).split(".");
  if (frac.length > dp) {
    throw new RangeError(`${canonical} has more than ${dp} decimal places`);
  }
  const units = BigInt(int + frac.padEnd(dp, "0"));
  return negative ? -units : units;
}

/**
 * Decimal amount (canonical string) of `units` base units with `dp` decimal places.
 *
 * @example
 * fromBaseUnits(1500000000000000000n, 18); // "1.5"
 * fromBaseUnits(1n, 8); // "0.00000001"
 */
export function fromBaseUnits(units: bigint, dp: number): string {
  assertDp(dp);
  if (typeof units !== "bigint") throw new TypeError("units must be a bigint");
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(dp + 1, "0");
  const int = digits.slice(0, digits.length - dp);
  const frac = digits.slice(digits.length - dp);
  const text = `${negative ? "-" : ""}${int}${dp > 0 ? `.${frac}` : ""}`;
  return plainText(parseFixed(text));
}
