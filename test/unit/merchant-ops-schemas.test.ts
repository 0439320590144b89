/**
 * The merchant operations' schemas as the worker bundle carries them: the CSV's columns
 * (`ORDER_CSV_COLUMNS`, a literal) are the order list answer's keys in the answer schema's
 * order (`schemas/merchant-ops-answers.ts`, which only the OpenAPI document and the tests
 * load); an instant (`INSTANT`, a plain pattern) accepts exactly what `z.iso.datetime({ offset:
 * true })`, which it replaced, accepts.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { regexes } from "zod/v4/core";
import {
  INSTANT,
  ORDER_CSV_COLUMNS,
  ordersCsvQuery,
  ordersListQuery,
} from "../../worker/lib/api/merchant-ops.ts";
import { orderSummary } from "../../worker/lib/api/schemas/merchant-ops-answers.ts";
import { check } from "../../worker/lib/schema.ts";

describe("the order CSV's columns", () => {
  it("are OrderSummary's keys, in the schema's order", () => {
    expect([...ORDER_CSV_COLUMNS]).toEqual(Object.keys(orderSummary.shape));
  });
});

describe("an instant in a query (createdFrom, createdTo)", () => {
  const zodInstant = z.iso.datetime({ offset: true });
  const accepts = (value: string) => check(ordersListQuery, { createdFrom: value }).success;

  it("is zod's own datetime pattern with offsets", () => {
    expect(INSTANT.source).toBe(regexes.datetime({ offset: true }).source);
  });

  it.each([
    "2026-01-31T00:00:00Z",
    "2026-01-31T23:59:59.123456Z",
    "2026-01-31T10:00:00+05:30",
    "2026-01-31T10:00:00-00:00",
    "2024-02-29T00:00:00Z",
    "2023-02-29T00:00:00Z",
    "2026-01-31T00:00Z",
    "2026-01-31T00:00:00",
    "2026-01-31 00:00:00Z",
    "2026-13-01T00:00:00Z",
    "2026-01-31T24:00:00Z",
    "2026-01-31T00:00:00+0530",
    "2026-01-31T00:00:00+24:00",
    "2026-01-31",
    "",
    "2026-01-31T00:00:00Z ",
    "2026-01-31T00:00:00.Z",
  ])("%j: accepted exactly when z.iso.datetime accepts it", (value) => {
    expect(accepts(value)).toBe(zodInstant.safeParse(value).success);
    expect(check(ordersCsvQuery, { createdTo: value }).success).toBe(
      zodInstant.safeParse(value).success,
    );
  });

  it("agrees with z.iso.datetime on generated instants and near-instants", () => {
    const instants = fc
      .date({ min: new Date("0001-01-01T00:00:00Z"), max: new Date("9999-12-31T23:59:59Z") })
      .filter((d) => !Number.isNaN(d.getTime()))
      .map((d) => d.toISOString());
    const mangled = fc
      .tuple(instants, fc.nat(), fc.constantFrom("", "Z", "+01:00", "x", ".5", ":", " ", "T"))
      .map(([s, at, piece]) => s.slice(0, at % (s.length + 1)) + piece + s.slice(at % s.length));
    fc.assert(
      fc.property(fc.oneof(instants, mangled, fc.string()), (value) => {
        expect(accepts(value)).toBe(zodInstant.safeParse(value).success);
      }),
      { numRuns: 2000 },
    );
  });

  it("names the rule when refused", () => {
    const refused = check(ordersListQuery, { createdFrom: "yesterday" });
    const issue = refused.success ? undefined : refused.issues[0];
    expect(issue?.message).toBe(
      "must be an ISO 8601 instant with a zone, e.g. 2026-01-31T00:00:00Z",
    );
    expect(issue?.path).toEqual(["createdFrom"]);
  });
});
