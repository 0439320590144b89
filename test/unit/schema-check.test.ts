/**
 * `check` (worker/lib/schema.ts): a strict object nested inside another (the worker has none
 * today, but adding one must give a 400-shaped problem, never an exception, a 500); the words
 * a person reads where a schema names no message; records copied without an own `__proto__`.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { webhookEnvelope } from "../../worker/edge/webhooks/payload.ts";
import { parseExactJson } from "../../worker/lib/money/exact-json.ts";
import { check } from "../../worker/lib/schema.ts";
import { errorBodySchema } from "../../worker/service/schemas.ts";

describe("check: unknown keys", () => {
  it("a root strict object lists every unknown key at the root", () => {
    const result = check(z.strictObject({ a: z.string() }), { a: "x", b: 1, c: 2 });
    expect(result).toEqual({
      success: false,
      issues: [expect.objectContaining({ path: [], code: "unrecognized_keys", keys: ["b", "c"] })],
    });
  });

  it("a nested strict object reports its unknown keys at its own path instead of throwing", () => {
    const schema = z.object({ inner: z.strictObject({ a: z.string() }) });
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
    const schema = z.object({ inner: z.strictObject({ a: z.string() }) });
    expect(check(schema, { inner: { a: "x" } })).toEqual({
      success: true,
      data: { inner: { a: "x" } },
    });
  });
});

describe("check: what a person reads (detail) where the schema names no message", () => {
  const body = z.object({
    token: z.string().check(z.minLength(1), z.maxLength(8)),
    kind: z.optional(z.enum(["a", "b"])),
    code: z.optional(z.string().check(z.regex(/^[A-Z]+$/))),
    named: z.optional(z.string().check(z.regex(/^x$/, "must be x"))),
  });
  const detail = (input: unknown) => {
    const result = check(body, input);
    if (result.success) throw new Error("expected a refusal");
    return [result.issues[0]?.path, result.issues[0]?.detail, result.issues[0]?.message];
  };

  it.each([
    ["a missing field", {}, ["token"], "is required"],
    ["a field of another type", { token: 5 }, ["token"], "must be a string"],
    ["a string too short", { token: "" }, ["token"], "must not be empty"],
    ["a string too long", { token: "123456789" }, ["token"], "must be at most 8 characters"],
    ["a value outside a list", { token: "t", kind: "c" }, ["kind"], 'must be one of ("a" | "b")'],
    ["a pattern missed", { token: "t", code: "ab" }, ["code"], "is not in the expected format"],
    ["an array body", [], [], "must be a JSON object"],
    ["a null body", null, [], "must be a JSON object"],
  ])("%s: %s", (_what, input, path, words) => {
    // `message` is zod/mini's "Invalid input"; `detail` says what was wrong.
    expect(detail(input)).toEqual([path, words, "Invalid input"]);
  });

  it("a message the schema names is the detail too", () => {
    expect(detail({ token: "t", named: "y" })).toEqual([["named"], "must be x", "must be x"]);
  });
});

describe("records: an own __proto__ key is never copied", () => {
  it("a webhook's data and an error body's extension come out without it", () => {
    const body = parseExactJson(
      '{"event": "invoice.statusChanged", "timestamp": "1", "data": {"__proto__": {"status": "paid"}, "id": "inv_1"}}',
    );
    const parsed = check(webhookEnvelope, body);
    if (!parsed.success) throw new Error("expected the envelope to pass");
    const data = parsed.data.data;
    expect(Object.keys(data)).toEqual(["id"]);
    expect(data.status).toBeUndefined();
    // A later copy of the record cannot take a prototype from it.
    expect(Object.getPrototypeOf(Object.assign({}, data))).toBe(Object.prototype);
    const error = parseExactJson('{"code": "x", "extension": {"__proto__": {"a": 1}, "b": 2}}');
    const answer = check(errorBodySchema, error);
    expect(answer.success && Object.keys(answer.data.extension ?? {})).toEqual(["b"]);
  });
});
