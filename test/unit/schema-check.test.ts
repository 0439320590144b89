/**
 * `check` (worker/lib/schema.ts) on a strict object nested inside another: the worker has none
 * today, but adding one must give a 400-shaped problem, never an exception (a 500).
 */
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { check, object, strictObject } from "../../worker/lib/schema.ts";

describe("check: unknown keys", () => {
  it("a root strict object lists every unknown key at the root", () => {
    const result = check(strictObject({ a: v.string() }), { a: "x", b: 1, c: 2 });
    expect(result).toEqual({
      success: false,
      issues: [expect.objectContaining({ path: [], code: "unrecognized_keys", keys: ["b", "c"] })],
    });
  });

  it("a nested strict object reports its first unknown key at its own path instead of throwing", () => {
    const schema = object({ inner: strictObject({ a: v.string() }) });
    const result = check(schema, { inner: { a: "x", b: 1 } });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.issues[0]).toMatchObject({
      path: ["inner"],
      code: "unrecognized_keys",
      keys: ["b"],
    });
  });

  it("a nested strict object with known keys only passes", () => {
    const schema = object({ inner: strictObject({ a: v.string() }) });
    expect(check(schema, { inner: { a: "x" } })).toEqual({
      success: true,
      data: { inner: { a: "x" } },
    });
  });
});
