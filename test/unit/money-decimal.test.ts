/**
 * Example-based tests of the decimal-string API: canonical form, validation, arithmetic,
 * rounding directions, fixed formatting and base units.
 */
import { describe, expect, it } from "vitest";
import {
  add,
  cmp,
  decimalPlacesOf,
  div,
  fitsDecimalPlaces,
  formatFixed,
  fromBaseUnits,
  isDecimalString,
  isPositive,
  isZero,
  max,
  min,
  mul,
  roundDecimal,
  sub,
  toBaseUnits,
  toDecimal,
} from "../../worker/lib/money/decimal.ts";

describe("toDecimal (canonical form)", () => {
  it.each([
    ["1e-7", "0.0000001"],
    ["1E+3", "1000"],
    ["2.5e2", "250"],
    ["100", "100"],
    ["-0", "0"],
    ["-0.000", "0"],
    ["49.90", "49.9"],
    ["100.0", "100"],
    ["007.50", "7.5"],
    ["-1.230", "-1.23"],
    ["0.000000000000000001123", "0.000000000000000001123"],
    ["123456789012345678901234.5", "123456789012345678901234.5"],
  ])("%s → %s", (input, expected) => {
    expect(toDecimal(input)).toBe(expected);
  });

  it.each(["", "abc", "1,5", " 1", "1 ", "+1", ".5", "5.", "0x10", "NaN", "Infinity", "1e", "--1"])(
    "rejects %j",
    (input) => {
      expect(() => toDecimal(input)).toThrow(TypeError);
    },
  );

  it("rejects huge exponents and over-long text instead of expanding them", () => {
    expect(() => toDecimal("1e999999999")).toThrow(RangeError);
    expect(() => toDecimal("1".repeat(201))).toThrow(TypeError);
  });
});

describe("isDecimalString", () => {
  it("accepts plain non-negative decimals only", () => {
    for (const ok of ["0", "49.90", "0.000001", "100", "1".repeat(64)]) {
      expect(isDecimalString(ok)).toBe(true);
    }
    for (const bad of ["-1", "1e3", "1.", ".1", "", " 1", "1.2.3", "1".repeat(65), 5, null]) {
      expect(isDecimalString(bad)).toBe(false);
    }
  });
});

describe("arithmetic", () => {
  it("is exact where floats are not", () => {
    expect(add("0.1", "0.2")).toBe("0.3");
    expect(sub("1", "0.000000000000000001")).toBe("0.999999999999999999");
    expect(mul("1.000000000000000001", "3.5")).toBe("3.5000000000000000035");
    expect(sub("1", "1.00")).toBe("0");
  });

  it("divides with an explicit number of places and direction", () => {
    expect(div("1", "3", 6, "down")).toBe("0.333333");
    expect(div("1", "3", 6, "up")).toBe("0.333334");
    expect(div("2", "3", 2, "half-even")).toBe("0.67");
    expect(div("-1", "3", 2, "down")).toBe("-0.34");
    expect(div("-1", "3", 2, "up")).toBe("-0.33");
    expect(div("6", "3", 2, "up")).toBe("2");
    expect(() => div("1", "0", 2, "up")).toThrow(RangeError);
    expect(() => div("1", "3", -1, "up")).toThrow(RangeError);
  });

  it("compares and classifies", () => {
    expect(cmp("1.50", "1.5")).toBe(0);
    expect(cmp("2", "10")).toBe(-1);
    expect(cmp("0.0000001", "1e-8")).toBe(1);
    expect(isZero("0.000")).toBe(true);
    expect(isZero("-0")).toBe(true);
    expect(isZero("0.0001")).toBe(false);
    expect(isPositive("0.000001")).toBe(true);
    expect(isPositive("0")).toBe(false);
    expect(isPositive("-1")).toBe(false);
    expect(min("2", "10")).toBe("2");
    expect(max("2.50", "1")).toBe("2.5");
    expect(max("0", sub("1", "2"))).toBe("0");
  });

  it("rejects non-numeric operands", () => {
    expect(() => add("1", "x")).toThrow(TypeError);
    expect(() => cmp("1", "")).toThrow(TypeError);
  });
});

describe("decimal places and rounding", () => {
  it("counts significant decimal places", () => {
    expect(decimalPlacesOf("1.50")).toBe(1);
    expect(decimalPlacesOf("1e-7")).toBe(7);
    expect(decimalPlacesOf("100")).toBe(0);
    expect(fitsDecimalPlaces("49.90", 2)).toBe(true);
    expect(fitsDecimalPlaces("0.001", 2)).toBe(false);
  });

  it("rounds only in the stated direction", () => {
    expect(roundDecimal("1.231", 2, "up")).toBe("1.24");
    expect(roundDecimal("1.239", 2, "down")).toBe("1.23");
    expect(roundDecimal("1.235", 2, "half-even")).toBe("1.24");
    expect(roundDecimal("1.245", 2, "half-even")).toBe("1.24");
    expect(roundDecimal("-1.231", 2, "up")).toBe("-1.23");
    expect(roundDecimal("-1.231", 2, "down")).toBe("-1.24");
    expect(roundDecimal("1.2", 2, "up")).toBe("1.2");
    expect(roundDecimal("0.0000001", 6, "up")).toBe("0.000001");
  });

  it("formats with exactly dp places and refuses silent rounding", () => {
    expect(formatFixed("49.9", 2)).toBe("49.90");
    expect(formatFixed("100", 0)).toBe("100");
    expect(formatFixed("0.00012345", 18)).toBe("0.000123450000000000");
    expect(() => formatFixed("0.123", 2)).toThrow(RangeError);
    expect(formatFixed("0.123", 2, "up")).toBe("0.13");
    expect(formatFixed("0.123", 2, "down")).toBe("0.12");
    expect(formatFixed("-0.001", 2, "up")).toBe("0.00");
  });
});

describe("base units", () => {
  it("converts exactly for 6, 8 and 18 decimals", () => {
    expect(toBaseUnits("1.5", 18)).toBe(1_500_000_000_000_000_000n);
    expect(toBaseUnits("49.9", 6)).toBe(49_900_000n);
    expect(toBaseUnits("0.00000001", 8)).toBe(1n);
    expect(toBaseUnits("1e-18", 18)).toBe(1n);
    expect(toBaseUnits("12", 0)).toBe(12n);
    expect(fromBaseUnits(1_500_000_000_000_000_000n, 18)).toBe("1.5");
    expect(fromBaseUnits(1n, 8)).toBe("0.00000001");
    expect(fromBaseUnits(0n, 18)).toBe("0");
    expect(fromBaseUnits(-25n, 1)).toBe("-2.5");
  });

  it("throws instead of dropping digits", () => {
    expect(() => toBaseUnits("0.1234567", 6)).toThrow(RangeError);
    expect(() => toBaseUnits("0.5", 0)).toThrow(RangeError);
    expect(toBaseUnits("0.1234560", 6)).toBe(123_456n);
  });
});
