/**
 * The CSV's columns (`ORDER_CSV_COLUMNS`, a literal in the worker bundle) are the order list
 * answer's keys in the answer schema's order (`schemas/merchant-ops-answers.ts`, which only the
 * OpenAPI document and the tests load).
 */
import { describe, expect, it } from "vitest";
import { ORDER_CSV_COLUMNS } from "../../worker/lib/api/merchant-ops.ts";
import { orderSummary } from "../../worker/lib/api/schemas/merchant-ops-answers.ts";

describe("the order CSV's columns", () => {
  it("are OrderSummary's keys, in the schema's order", () => {
    expect([...ORDER_CSV_COLUMNS]).toEqual(Object.keys(orderSummary.shape));
  });
});
