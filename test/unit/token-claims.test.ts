/**
 * The checkout token's `exp` and `iat` claims (`worker/edge/token/claims.ts`): accepted and
 * refused exactly as zod's `z.int().check(z.positive())` / `z.int().check(z.nonnegative())`,
 * which they replaced, with the same first issue (path and message) for the claims.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { checkoutClaimsSchema } from "../../worker/edge/token/claims.ts";
import { check, type Schema } from "../../worker/lib/schema.ts";

const before = z.object({
  exp: z.int().check(z.positive()),
  iat: z.optional(z.int().check(z.nonnegative())),
});

const valid = { sub: "1001", amount: "10.00", currency: "USD" };

/** Success, or the first issue's path and message. */
function verdict(schema: z.ZodMiniType | Schema, value: unknown) {
  const parsed = "safeParse" in schema ? schema.safeParse(value) : check(schema, value);
  if (parsed.success) return "ok";
  const issue = "error" in parsed ? parsed.error.issues[0] : parsed.issues[0];
  return { path: issue?.path, message: issue?.message };
}

const numbers = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(
    0,
    -0,
    1,
    -1,
    0.5,
    2 ** 53 - 1,
    2 ** 53,
    -(2 ** 53),
    Number.NaN,
    Number.POSITIVE_INFINITY,
    1e21,
  ),
);
const values = fc.oneof(
  numbers,
  fc.constantFrom("1", "", null, undefined, true, [], {}),
  fc.anything(),
);

describe("exp and iat", () => {
  it("get zod's int verdicts on generated values", () => {
    for (const sandbox of [true, false]) {
      fc.assert(
        fc.property(values, fc.option(values, { nil: undefined }), (exp, iat) => {
          const claims = iat === undefined ? { exp } : { exp, iat };
          expect(verdict(checkoutClaimsSchema(sandbox), { ...valid, ...claims })).toEqual(
            verdict(before, claims),
          );
        }),
        { numRuns: 3000 },
      );
    }
  });

  it.each([
    [{ exp: 1 }, "ok"],
    [{ exp: 2 ** 53 - 1, iat: 0 }, "ok"],
    [{ exp: 0 }, { path: ["exp"], message: "Invalid input" }],
    [{ exp: -0 }, { path: ["exp"], message: "Invalid input" }],
    [{ exp: 2 ** 53 }, { path: ["exp"], message: "Invalid input" }],
    [{ exp: 1.5 }, { path: ["exp"], message: "Invalid input" }],
    [{ exp: "1" }, { path: ["exp"], message: "Invalid input" }],
    [{}, { path: ["exp"], message: "Invalid input" }],
    [
      { exp: 1, iat: -1 },
      { path: ["iat"], message: "Invalid input" },
    ],
    [
      { exp: 1, iat: null },
      { path: ["iat"], message: "Invalid input" },
    ],
  ])("%j → %j", (claims, expected) => {
    expect(verdict(checkoutClaimsSchema(true), { ...valid, ...claims })).toEqual(expected);
    expect(verdict(before, claims)).toEqual(expected);
  });
});
