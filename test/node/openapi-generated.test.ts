/**
 * The committed OpenAPI document (`worker/lib/api/openapi/openapi.json`, what the worker serves) is
 * the build-time output of the route table and its zod schemas: like a lockfile, it fails here
 * when a schema or route changed without `npm run build:openapi`.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { GENERATED_PATH, generatedText } from "../../scripts/build-openapi.ts";
import { openApiJson } from "../../worker/lib/api/openapi/document.ts";

describe("worker/lib/api/openapi/openapi.json", () => {
  it("is what the route table generates today (run `npm run build:openapi` if not)", () => {
    expect(readFileSync(GENERATED_PATH, "utf8")).toBe(generatedText());
  });

  it("compacts to exactly the bytes the route table's document serialises to", () => {
    const committed = JSON.parse(readFileSync(GENERATED_PATH, "utf8")) as unknown;
    expect(JSON.stringify(committed)).toBe(openApiJson());
  });
});
