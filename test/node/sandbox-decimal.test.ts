/**
 * The sandbox's own decimal module: strict big.js (no number ever enters or leaves an amount
 * as a float), bounded numerals, and rounding by sign as its module header documents.
 */
import { describe, expect, it } from "vitest";
import {
  Dec,
  numeralInRange,
  parseDecimalString,
  parseNumberText,
  plain,
  roundDown,
  roundUp,
} from "../../demo/sandbox/decimal.ts";

describe("sandbox decimal", () => {
  it("is strict: a JS number neither makes nor leaves a Dec", () => {
    expect(() => new Dec(0.1 as unknown as string)).toThrow(TypeError);
    expect(() => new Dec("1").plus(1 as unknown as string)).toThrow(TypeError);
    expect(() => Number(new Dec("0.1"))).toThrow();
    expect(new Dec("0.1").plus("0.2").toFixed()).toBe("0.3");
  });

  it("bounds numerals before big.js expands them", () => {
    expect(numeralInRange("1e100")).toBe(true);
    expect(numeralInRange("1e-100")).toBe(true);
    expect(numeralInRange("1e101")).toBe(false);
    expect(numeralInRange("1e999999999")).toBe(false);
    expect(numeralInRange("9".repeat(101))).toBe(false);
    expect(parseNumberText("1e999999999")).toBeNull();
    expect(parseDecimalString("9".repeat(101))).toBeNull();
    expect(plain(parseNumberText("1234e-2") ?? new Dec("0"))).toBe("12.34");
  });

  it("rounds by sign: down toward zero, up away from zero", () => {
    expect(plain(roundDown(new Dec("1.999"), 2))).toBe("1.99");
    expect(plain(roundDown(new Dec("-1.999"), 2))).toBe("-1.99");
    expect(plain(roundUp(new Dec("1.001"), 2))).toBe("1.01");
    expect(plain(roundUp(new Dec("-1.001"), 2))).toBe("-1.01");
  });
});
