/**
 * A page of the service's list answers (`worker/service/schemas.ts`): `hasMore` is a JSON
 * boolean, accepted and refused as `z.boolean()` does.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { parseExactJson } from "../../worker/lib/money/exact-json.ts";
import { check } from "../../worker/lib/schema.ts";
import { depositPageSchema } from "../../worker/service/schemas.ts";

const page = (hasMore: unknown) =>
  parseExactJson(JSON.stringify({ data: [], total: 0, page: 1, limit: 50, hasMore }));

describe("a service page's hasMore", () => {
  it.each([true, false, "true", 1, 0, null, [], {}])("%j: z.boolean()'s verdict", (hasMore) => {
    const parsed = check(depositPageSchema, page(hasMore));
    expect(parsed.success).toBe(z.boolean().safeParse(hasMore).success);
    if (!parsed.success) {
      expect(parsed.issues[0]).toMatchObject({ path: ["hasMore"], message: "Invalid input" });
    }
  });

  it("an absent hasMore is refused", () => {
    const answer = parseExactJson('{"data":[],"total":0,"page":1,"limit":50}');
    const parsed = check(depositPageSchema, answer);
    expect(parsed.success ? null : parsed.issues[0]?.path).toEqual(["hasMore"]);
  });
});
