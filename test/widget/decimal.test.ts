/**
 * Exact comparison of decimal amounts in the widget (`widget/decimal.ts`): agrees with big.js
 * on every pair, including the 18-decimal amounts a double cannot tell apart.
 */
import Big from "big.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareDecimal, maxDecimal } from "../../widget/decimal.ts";

/** Non-negative decimal strings as the worker writes them, with the odd leading/trailing zero. */
const amount = fc
  .tuple(
    fc.stringMatching(/^(0|[1-9][0-9]{0,20}|00[0-9]{0,3})$/),
    fc.option(fc.stringMatching(/^[0-9]{1,18}$/), { nil: undefined }),
  )
  .map(([int, frac]) => (frac === undefined ? int : `${int}.${frac}`));

describe("compareDecimal", () => {
  it("orders amounts a double cannot tell apart", () => {
    expect(Number("1.000000000000000001")).toBe(Number("1"));
    expect(compareDecimal("1.000000000000000001", "1")).toBe(1);
    expect(compareDecimal("1", "1.000000000000000001")).toBe(-1);
    expect(compareDecimal("9007199254740993", "9007199254740992")).toBe(1);
  });

  it("ignores leading and trailing zeros", () => {
    expect(compareDecimal("2.50", "2.5")).toBe(0);
    expect(compareDecimal("002.5", "2.5")).toBe(0);
    expect(compareDecimal("0.0", "0")).toBe(0);
    expect(compareDecimal("10", "9.99")).toBe(1);
    expect(compareDecimal("0.1", ".2")).toBe(-1);
  });

  it("agrees with big.js on any two amounts", () => {
    fc.assert(
      fc.property(amount, amount, (a, b) => {
        expect(compareDecimal(a, b)).toBe(new Big(a).cmp(new Big(b)));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("maxDecimal", () => {
  it("the larger amount, as written; the first when the second is absent or equal", () => {
    expect(maxDecimal("2.5", "1")).toBe("2.5");
    expect(maxDecimal("1", "2.5")).toBe("2.5");
    expect(maxDecimal("2.5", null)).toBe("2.5");
    expect(maxDecimal("2.5", "2.50")).toBe("2.5");
    expect(maxDecimal("0.000000000000000001", "0.000000000000000002")).toBe("0.000000000000000002");
  });
});
