/**
 * Property tests of the money module across 0–18 decimal places (6 and 18 always included).
 * Oracles are independent BigInt/string computations, never the code under test.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  add,
  cmp,
  decimalPlacesOf,
  div,
  formatFixed,
  fromBaseUnits,
  roundDecimal,
  sub,
  toBaseUnits,
  toDecimal,
} from "../../worker/lib/money/decimal.ts";
import {
  exactJsonNumber,
  type JsonNumber,
  parseExactJson,
} from "../../worker/lib/money/exact-json.ts";
import type { Rounding } from "../../worker/lib/money/rounding-mode.ts";

const RUNS = { numRuns: 1000 };

/** Decimal places: anything 0–18, with 6 and 18 (USDT, wei) drawn often. */
const dpArb = fc.oneof(fc.constantFrom(6, 18), fc.integer({ min: 0, max: 18 }));

/** Independent canonical form of `mantissa × 10^-scale` (scale may be negative). */
function canon(mantissa: bigint, scale: number): string {
  if (mantissa === 0n) return "0";
  if (scale <= 0) return (mantissa * 10n ** BigInt(-scale)).toString();
  const negative = mantissa < 0n;
  const digits = (negative ? -mantissa : mantissa).toString().padStart(scale + 1, "0");
  const int = digits.slice(0, digits.length - scale);
  const frac = digits.slice(digits.length - scale).replace(/0+$/, "");
  return `${negative ? "-" : ""}${int}${frac ? `.${frac}` : ""}`;
}

/** A decimal with at most `dp` places, as [text, units] with `text` non-canonical at times. */
const amountWithin = (dp: number) =>
  fc
    .tuple(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.integer({ min: 0, max: 3 }))
    .map(([units, extraZeros]) => {
      const text = canon(units, dp);
      // Sometimes add trailing zeros: they must not change anything.
      const padded = extraZeros && text.includes(".") ? text + "0".repeat(extraZeros) : text;
      return { text: padded, units };
    });

/**
 * Independent oracle: `num / den` rounded to `dp` places in the money module's sense ("down"
 * toward −∞, "up" toward +∞, "half-even" to the nearest with ties to the even last digit),
 * computed with BigInt floor division only.
 */
function roundRatio(num: bigint, den: bigint, dp: number, rounding: Rounding): string {
  const [n0, d] = den < 0n ? [-num, -den] : [num, den];
  const n = n0 * 10n ** BigInt(dp);
  let q = n / d; // truncates toward zero
  let r = n - q * d;
  if (r < 0n) {
    q -= 1n; // now the floor, with 0 <= r < d
    r += d;
  }
  if (r !== 0n) {
    if (rounding === "up") q += 1n;
    if (rounding === "half-even" && (2n * r > d || (2n * r === d && q % 2n !== 0n))) q += 1n;
  }
  return canon(q, dp);
}

const roundingArb = fc.constantFrom<Rounding>("down", "up", "half-even");

/** A signed decimal as [mantissa, scale]: the value is `mantissa × 10^-scale`. */
const signedParts = fc.tuple(
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
  fc.integer({ min: 0, max: 24 }),
);

/** Any signed decimal with up to 24 places. */
const signedDecimal = fc
  .tuple(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: 0, max: 24 }))
  .map(([m, s]) => canon(m, s));

describe("money properties", () => {
  it("base units round-trip for every dp (units → decimal → units)", () => {
    fc.assert(
      fc.property(dpArb, fc.bigInt({ min: -(10n ** 36n), max: 10n ** 36n }), (dp, units) => {
        const decimal = fromBaseUnits(units, dp);
        expect(decimal).toBe(canon(units, dp));
        expect(toBaseUnits(decimal, dp)).toBe(units);
      }),
      RUNS,
    );
  });

  it("base units round-trip for every dp (decimal → units → decimal)", () => {
    fc.assert(
      fc.property(
        dpArb.chain((dp) => fc.tuple(fc.constant(dp), amountWithin(dp))),
        ([dp, { text, units }]) => {
          expect(toBaseUnits(text, dp)).toBe(units);
          expect(fromBaseUnits(toBaseUnits(text, dp), dp)).toBe(toDecimal(text));
        },
      ),
      RUNS,
    );
  });

  it("toBaseUnits throws when the amount has more places than dp", () => {
    fc.assert(
      fc.property(dpArb, fc.bigInt({ min: 1n, max: 10n ** 20n }), (dp, m) => {
        // m × 10^-(dp+1) with a non-zero last digit has exactly dp+1 places.
        const text = canon(m * 10n + 1n, dp + 1);
        expect(() => toBaseUnits(text, dp)).toThrow(RangeError);
      }),
      RUNS,
    );
  });

  it("add and sub are exact inverses", () => {
    fc.assert(
      fc.property(signedDecimal, signedDecimal, (a, b) => {
        expect(sub(add(a, b), b)).toBe(a);
        expect(add(sub(a, b), b)).toBe(a);
      }),
      RUNS,
    );
  });

  it("add matches a BigInt oracle", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
        fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
        dpArb,
        (x, y, dp) => {
          expect(add(canon(x, dp), canon(y, 18))).toBe(canon(x * 10n ** BigInt(18 - dp) + y, 18));
        },
      ),
      RUNS,
    );
  });

  it("rounds in the stated direction, within one unit of the last place", () => {
    fc.assert(
      fc.property(signedDecimal, dpArb, (x, dp) => {
        const up = roundDecimal(x, dp, "up");
        const down = roundDecimal(x, dp, "down");
        const even = roundDecimal(x, dp, "half-even");
        const unit = canon(1n, dp);
        expect(cmp(up, x)).toBeGreaterThanOrEqual(0);
        expect(cmp(down, x)).toBeLessThanOrEqual(0);
        expect(cmp(sub(up, x), unit)).toBe(-1);
        expect(cmp(sub(x, down), unit)).toBe(-1);
        expect(cmp(even, down)).toBeGreaterThanOrEqual(0);
        expect(cmp(even, up)).toBeLessThanOrEqual(0);
        for (const r of [up, down, even]) expect(decimalPlacesOf(r)).toBeLessThanOrEqual(dp);
        // A value that already fits is never changed.
        if (decimalPlacesOf(x) <= dp) {
          expect(up).toBe(x);
          expect(down).toBe(x);
        } else {
          expect(cmp(sub(up, down), unit)).toBe(0);
        }
      }),
      RUNS,
    );
  });

  it("roundDecimal matches a BigInt oracle in every direction (half-even ties included)", () => {
    fc.assert(
      fc.property(signedParts, dpArb, roundingArb, ([m, scale], dp, rounding) => {
        expect(roundDecimal(canon(m, scale), dp, rounding)).toBe(
          roundRatio(m, 10n ** BigInt(scale), dp, rounding),
        );
      }),
      RUNS,
    );
    // Ties, explicitly: half-even goes to the even neighbour on both signs.
    const ties: Array<[string, string]> = [
      ["0.5", "0"],
      ["1.5", "2"],
      ["2.5", "2"],
      ["-0.5", "0"],
      ["-1.5", "-2"],
      ["-2.5", "-2"],
    ];
    for (const [x, even] of ties) expect(roundDecimal(x, 0, "half-even")).toBe(even);
  });

  it("div matches a BigInt oracle in every direction", () => {
    const nonZero = signedParts.filter(([m]) => m !== 0n);
    fc.assert(
      fc.property(signedParts, nonZero, dpArb, roundingArb, ([ma, sa], [mb, sb], dp, rounding) => {
        // (ma·10^-sa) / (mb·10^-sb) = (ma·10^sb) / (mb·10^sa)
        const expected = roundRatio(ma * 10n ** BigInt(sb), mb * 10n ** BigInt(sa), dp, rounding);
        expect(div(canon(ma, sa), canon(mb, sb), dp, rounding)).toBe(expected);
      }),
      RUNS,
    );
    expect(() => div("1", "0", 2, "down")).toThrow(RangeError);
  });

  it("exact JSON: numerals with up to 30 significant digits survive parse → stringify", () => {
    const numeral = fc
      .record({
        negative: fc.boolean(),
        digits: fc.stringMatching(/^[1-9]\d{0,29}$/),
        point: fc.nat({ max: 40 }),
        exponent: fc.option(fc.integer({ min: -30, max: 30 }), { nil: undefined }),
      })
      .map(({ negative, digits, point, exponent }) => {
        // Place the decimal point `point` digits from the right, padding with zeros.
        const padded = digits.padStart(point + 1, "0");
        const int = padded.slice(0, padded.length - point);
        const frac = padded.slice(padded.length - point);
        const text = `${negative ? "-" : ""}${int}${point ? `.${frac}` : ""}${
          exponent === undefined ? "" : `e${exponent}`
        }`;
        const mantissa = BigInt(digits) * (negative ? -1n : 1n);
        return { text, expected: canon(mantissa, point - (exponent ?? 0)) };
      });
    fc.assert(
      fc.property(numeral, ({ text, expected }) => {
        const parsed = parseExactJson(`{"v":${text},"list":[${text}]}`) as {
          v: JsonNumber;
          list: JsonNumber[];
        };
        expect(parsed.v.source).toBe(text);
        expect(parsed.list[0]?.source).toBe(text);
        const decimal = toDecimal(parsed.v.source);
        expect(decimal).toBe(expected);
        const written = JSON.stringify({ v: exactJsonNumber(decimal) });
        expect(written).toBe(`{"v":${expected}}`);
        expect((parseExactJson(written) as { v: JsonNumber }).v.source).toBe(expected);
      }),
      RUNS,
    );
  });

  it("formatFixed writes exactly dp places, same value, and never rounds silently", () => {
    fc.assert(
      fc.property(signedDecimal, dpArb, (x, dp) => {
        if (decimalPlacesOf(x) <= dp) {
          const out = formatFixed(x, dp);
          expect(out.split(".")[1]?.length ?? 0).toBe(dp);
          expect(toDecimal(out)).toBe(x);
        } else {
          expect(() => formatFixed(x, dp)).toThrow(RangeError);
          const up = formatFixed(x, dp, "up");
          expect(up.split(".")[1]?.length ?? 0).toBe(dp);
          expect(toDecimal(up)).toBe(roundDecimal(x, dp, "up"));
        }
      }),
      RUNS,
    );
  });
});
