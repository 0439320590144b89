/**
 * The worker's decimal-string API on BigInt (`worker/lib/money/fixed.ts`) against its big.js
 * original (`money-originals/big-decimal.ts`, verbatim from e3404b7): every exported operation,
 * every rounding direction, 0 to 60 decimal places, over generated numerals (negative, zero and
 * −0, leading zeros, exponents up to and past the bound, 18-decimal amounts, inputs up to and
 * past 200 characters, exact ties) and bad inputs. Each call must give the same value, or throw
 * the same error class with the same message.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as fixed from "../../worker/lib/money/decimal.ts";
import type { Rounding } from "../../worker/lib/money/rounding-mode.ts";
import * as original from "./money-originals/big-decimal.ts";

const RUNS = { numRuns: 3000 };

/** What a call gave: its value, or its error's class and message. */
function outcome(call: () => unknown): unknown {
  try {
    return { value: call() };
  } catch (error) {
    return { error: (error as Error).constructor.name, message: (error as Error).message };
  }
}

type Api = Record<string, (...args: unknown[]) => unknown>;
const ours = fixed as unknown as Api;
const theirs = original as unknown as Api;

/** The same call on both implementations gives the same outcome. */
function same(name: keyof typeof original, ...args: unknown[]): void {
  const call = (api: Api) => outcome(() => (api[name] as Api[string])(...args));
  expect(call(ours), `${name}(${args.map(String).join(", ")})`).toEqual(call(theirs));
}

const digits = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: min, maxLength: max });

/** Numerals the grammar accepts, from tiny to 200+ characters, exponents past the bound too. */
const numeral = fc
  .record({
    sign: fc.constantFrom("", "-"),
    int: fc.oneof(fc.constantFrom("0", "00", "1", "5"), digits(1, 30), digits(60, 120)),
    frac: fc.option(fc.oneof(digits(1, 18), digits(18, 18), digits(19, 80)), { nil: undefined }),
    exp: fc.option(
      fc.record({
        e: fc.constantFrom("e", "E"),
        sign: fc.constantFrom("", "+", "-"),
        n: fc.oneof(fc.integer({ min: 0, max: 25 }), fc.integer({ min: 95, max: 130 })),
      }),
      { nil: undefined },
    ),
  })
  .map(
    ({ sign, int, frac, exp }) =>
      `${sign}${int}${frac === undefined ? "" : `.${frac}`}${exp ? `${exp.e}${exp.sign}${exp.n}` : ""}`,
  );

/** Amounts as the worker meets them: up to 18 places, often exactly 6 or 18. */
const amount = fc
  .record({ sign: fc.constantFrom("", "-"), int: digits(1, 12), frac: digits(0, 18) })
  .map(({ sign, int, frac }) => `${sign}${int}${frac ? `.${frac}` : ""}`);

/** Text the grammar refuses (or a non-string), each must be refused the same way. */
const bad = fc.oneof(
  fc.constantFrom(
    "",
    "-",
    ".5",
    "5.",
    "1e",
    "+1",
    " 1",
    "1 ",
    "NaN",
    "Infinity",
    "-Infinity",
    "0x10",
    "1_000",
    "1,5",
    "--1",
    "1e+",
    "١٢",
    `1${"0".repeat(200)}`,
    `0.${"1".repeat(198)}`,
  ),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: fc.constantFrom(..."0123456789.-eE+"), maxLength: 10 }),
  fc.constantFrom(1 as unknown as string, null as unknown as string, 1n as unknown as string),
);

const value = fc.oneof(
  { weight: 4, arbitrary: numeral },
  { weight: 4, arbitrary: amount },
  { weight: 1, arbitrary: fc.constantFrom("0", "-0", "-0.000", "0e5", "1", "-1", "0.5", "-0.5") },
  { weight: 1, arbitrary: bad },
);

const dp = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 60 }) },
  { weight: 3, arbitrary: fc.constantFrom(0, 2, 6, 8, 18, 60) },
  { weight: 1, arbitrary: fc.constantFrom(-1, 61, 1.5, Number.NaN, Number.POSITIVE_INFINITY) },
);

const DIRECTIONS: Rounding[] = ["down", "up", "half-even"];
const rounding = fc.oneof(
  { weight: 9, arbitrary: fc.constantFrom(...DIRECTIONS) },
  { weight: 1, arbitrary: fc.constant("sideways" as Rounding) },
);

/** A value exactly halfway between two neighbours at `places` decimal places. */
const tie = fc
  .record({
    sign: fc.constantFrom("", "-"),
    int: digits(1, 6),
    places: fc.integer({ min: 0, max: 20 }),
  })
  .chain(({ sign, int, places }) =>
    digits(places, places).map((frac) => ({ text: `${sign}${int}.${frac}5`, places })),
  );

describe("the decimal-string API on BigInt agrees with its big.js original", () => {
  it("toDecimal, isZero, isPositive, decimalPlacesOf", () => {
    fc.assert(
      fc.property(value, (a) => {
        for (const name of ["toDecimal", "isZero", "isPositive", "decimalPlacesOf"] as const) {
          same(name, a);
        }
      }),
      RUNS,
    );
  });

  it("add, sub, mul, cmp, min, max", () => {
    fc.assert(
      fc.property(value, value, (a, b) => {
        for (const name of ["add", "sub", "mul", "cmp", "min", "max"] as const) same(name, a, b);
        same("cmp", a, a);
      }),
      RUNS,
    );
  });

  it("div in every direction and at 0 to 60 places (zero divisor, bad places, bad direction)", () => {
    fc.assert(
      fc.property(
        value,
        fc.oneof(value, fc.constantFrom("0", "-0.0", "3", "-7")),
        dp,
        rounding,
        (a, b, places, r) => {
          same("div", a, b, places, r);
        },
      ),
      RUNS,
    );
  });

  it("div whose exact quotient is a tie at the asked places", () => {
    fc.assert(
      fc.property(amount, tie, (b, { text, places }) => {
        const dividend = original.mul(b, text);
        for (const r of DIRECTIONS) same("div", dividend, b, places, r);
      }),
      RUNS,
    );
  });

  it("roundDecimal, formatFixed (with and without a direction), fitsDecimalPlaces", () => {
    fc.assert(
      fc.property(value, dp, rounding, (a, places, r) => {
        same("roundDecimal", a, places, r);
        same("formatFixed", a, places, r);
        same("formatFixed", a, places);
        same("fitsDecimalPlaces", a, places);
      }),
      RUNS,
    );
  });

  it("roundDecimal and formatFixed on exact ties, both signs", () => {
    fc.assert(
      fc.property(tie, rounding, ({ text, places }, r) => {
        same("roundDecimal", text, places, r);
        same("formatFixed", text, places, r);
        same("formatFixed", text, places);
      }),
      RUNS,
    );
  });

  it("toBaseUnits and fromBaseUnits (a non-bigint refused the same way)", () => {
    const units = fc.oneof(
      fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }),
      fc.constantFrom(0n, -1n, 1n),
      fc.constantFrom(1 as unknown as bigint, "1" as unknown as bigint),
    );
    fc.assert(
      fc.property(value, units, dp, (a, u, places) => {
        same("toBaseUnits", a, places);
        same("fromBaseUnits", u, places);
      }),
      RUNS,
    );
  });
});
