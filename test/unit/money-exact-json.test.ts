/**
 * Exact JSON in workerd: numbers are read as their source text and written as raw numerals.
 */
import { describe, expect, it } from "vitest";
import { exactJsonNumber, JsonNumber, parseExactJson } from "../../worker/lib/money/exact-json.ts";

const n = (source: string) => new JsonNumber(source);

describe("parseExactJson", () => {
  it("gives every number its exact source text, at any depth, marked as a number", () => {
    const parsed = parseExactJson(
      '{"a":0.123456789012345678901234,"b":[100,1e-7,-0,2.50],"c":{"d":"12.3","e":true,"f":null}}',
    );
    expect(parsed).toStrictEqual({
      a: n("0.123456789012345678901234"),
      b: [n("100"), n("1e-7"), n("-0"), n("2.50")],
      // A JSON string stays a string: it is not a number, even when it reads like one.
      c: { d: "12.3", e: true, f: null },
    });
  });

  it("keeps a number and a string with the same text apart", () => {
    const { num, str } = parseExactJson('{"num":12.5,"str":"12.5"}') as Record<string, unknown>;
    expect(num).toBeInstanceOf(JsonNumber);
    expect((num as JsonNumber).source).toBe("12.5");
    expect(str).toBe("12.5");
    expect(Object.isFrozen(num)).toBe(true);
  });

  it("throws SyntaxError on invalid JSON", () => {
    expect(() => parseExactJson("{nope")).toThrow(SyntaxError);
    expect(() => parseExactJson("")).toThrow(SyntaxError);
  });
});

describe("exactJsonNumber", () => {
  it("writes the canonical numeral verbatim through JSON.stringify", () => {
    expect(JSON.stringify({ amount: exactJsonNumber("49.90") })).toBe('{"amount":49.9}');
    expect(JSON.stringify({ v: exactJsonNumber("0.123456789012345678901234") })).toBe(
      '{"v":0.123456789012345678901234}',
    );
    expect(JSON.stringify([exactJsonNumber("1e-7"), exactJsonNumber("-0")])).toBe("[0.0000001,0]");
    expect(JSON.stringify({ big: exactJsonNumber("123456789012345678901234567890") })).toBe(
      '{"big":123456789012345678901234567890}',
    );
  });

  it("rejects non-numeric text instead of writing it", () => {
    expect(() => exactJsonNumber("1,5")).toThrow(TypeError);
    expect(() => exactJsonNumber('1}, "x": {')).toThrow(TypeError);
  });
});
