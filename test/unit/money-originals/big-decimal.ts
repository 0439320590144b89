/**
 * @module
 * The big.js original of the worker's decimal-string API (`worker/lib/money/`: `big.ts`,
 * `canonical.ts`, `arith.ts`, `rounding.ts`, `rounding-mode.ts`, `units.ts`) as it was before
 * the worker's arithmetic moved to BigInt (commit e3404b7), its code verbatim in one file, for
 * the differential test only (`test/unit/money-fixed.test.ts`; never imported by the worker).
 */
import BigDefault from "big.js";

const Big = BigDefault();
Big.strict = true;
Big.DP = 60;
Big.RM = Big.roundHalfEven;
Big.NE = -1_000_000;
Big.PE = 1_000_000;
type BigValue = InstanceType<typeof Big>;
const ZERO: BigValue = new Big("0");

export type Rounding = "down" | "up" | "half-even";

const MAX_SOURCE_LENGTH = 200;
const MAX_EXPONENT = 100;
const NUMERAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

function parseBig(source: string): BigValue {
  if (typeof source !== "string" || source.length > MAX_SOURCE_LENGTH) {
    throw new TypeError("not a decimal number");
  }
  const m = NUMERAL.exec(source);
  if (!m) throw new TypeError(`not a decimal number: ${JSON.stringify(source.slice(0, 40))}`);
  if (m[4] !== undefined && Math.abs(Number.parseInt(m[4], 10)) > MAX_EXPONENT) {
    throw new RangeError("decimal exponent out of range");
  }
  return new Big(source);
}

function fromBig(value: BigValue): string {
  const text = value.toFixed();
  return text === "-0" ? "0" : text;
}

function roundingMode(rounding: Rounding, negative: boolean): 0 | 2 | 3 {
  switch (rounding) {
    case "half-even":
      return Big.roundHalfEven;
    case "down":
      return negative ? Big.roundUp : Big.roundDown;
    case "up":
      return negative ? Big.roundDown : Big.roundUp;
    default:
      throw new TypeError(`unknown rounding ${String(rounding)}`);
  }
}

export function toDecimal(source: string): string {
  return fromBig(parseBig(source));
}

export function add(a: string, b: string): string {
  return fromBig(parseBig(a).plus(parseBig(b)));
}

export function sub(a: string, b: string): string {
  return fromBig(parseBig(a).minus(parseBig(b)));
}

export function mul(a: string, b: string): string {
  return fromBig(parseBig(a).times(parseBig(b)));
}

export function div(a: string, b: string, dp: number, rounding: Rounding): string {
  assertDp(dp);
  const divisor = parseBig(b);
  if (divisor.eq(ZERO)) throw new RangeError("division by zero");
  const dividend = parseBig(a);
  const negative = dividend.lt(ZERO) !== divisor.lt(ZERO) && !dividend.eq(ZERO);
  Big.DP = dp;
  Big.RM = roundingMode(rounding, negative);
  return fromBig(dividend.div(divisor));
}

export function cmp(a: string, b: string): -1 | 0 | 1 {
  return parseBig(a).cmp(parseBig(b)) as -1 | 0 | 1;
}

export function isZero(a: string): boolean {
  return parseBig(a).eq(ZERO);
}

export function isPositive(a: string): boolean {
  return parseBig(a).gt(ZERO);
}

export function min(a: string, b: string): string {
  const x = parseBig(a);
  const y = parseBig(b);
  return fromBig(x.lte(y) ? x : y);
}

export function max(a: string, b: string): string {
  const x = parseBig(a);
  const y = parseBig(b);
  return fromBig(x.gte(y) ? x : y);
}

function assertDp(dp: number): void {
  if (!Number.isInteger(dp) || dp < 0 || dp > 60) {
    throw new RangeError(`decimal places must be an integer 0..60, got ${dp}`);
  }
}

export function decimalPlacesOf(s: string): number {
  const canonical = fromBig(parseBig(s));
  const point = canonical.indexOf(".");
  return point < 0 ? 0 : canonical.length - point - 1;
}

export function fitsDecimalPlaces(s: string, dp: number): boolean {
  assertDp(dp);
  return decimalPlacesOf(s) <= dp;
}

export function roundDecimal(s: string, dp: number, rounding: Rounding): string {
  assertDp(dp);
  const value = parseBig(s);
  return fromBig(value.round(dp, roundingMode(rounding, value.lt(ZERO))));
}

export function formatFixed(s: string, dp: number, rounding?: Rounding): string {
  assertDp(dp);
  let value = parseBig(s);
  if (decimalPlacesOf(s) > dp) {
    if (rounding === undefined) {
      throw new RangeError(`${fromBig(value)} has more than ${dp} decimal places`);
    }
    value = value.round(dp, roundingMode(rounding, value.lt(ZERO)));
  }
  return value.eq(ZERO) ? ZERO.toFixed(dp) : value.toFixed(dp);
}

export function toBaseUnits(s: string, dp: number): bigint {
  assertDp(dp);
  const canonical = fromBig(parseBig(s));
  const negative = canonical.startsWith("-");
  const [int = "0", frac = ""] = (negative ? canonical.slice(1) : canonical).split(".");
  if (frac.length > dp) {
    throw new RangeError(`${canonical} has more than ${dp} decimal places`);
  }
  const units = BigInt(int + frac.padEnd(dp, "0"));
  return negative ? -units : units;
}

export function fromBaseUnits(units: bigint, dp: number): string {
  assertDp(dp);
  if (typeof units !== "bigint") throw new TypeError("units must be a bigint");
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(dp + 1, "0");
  const int = digits.slice(0, digits.length - dp);
  const frac = digits.slice(digits.length - dp);
  const text = `${negative ? "-" : ""}${int}${dp > 0 ? `.${frac}` : ""}`;
  return fromBig(parseBig(text));
}
