/**
 * @module
 * The decimal-string API of the money module, in one import: canonical form and validation,
 * exact arithmetic, directed rounding, fixed-point formatting and base units.
 *
 * Amounts are canonical decimal strings everywhere (see `canonical.ts`); `fixed.ts` does the
 * arithmetic (BigInt); nothing rounds unless a direction is stated; floats never appear.
 * JSON in/out with exact numerals lives in `exact-json.ts`.
 */
export { add, cmp, div, isPositive, isZero, max, min, mul, sub } from "./arith.ts";
export { isDecimalString, toDecimal } from "./canonical.ts";
export { decimalPlacesOf, fitsDecimalPlaces, formatFixed, roundDecimal } from "./rounding.ts";
export type { Rounding } from "./rounding-mode.ts";
export { fromBaseUnits, toBaseUnits } from "./units.ts";
