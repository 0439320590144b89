/**
 * @module
 * `npm run build:openapi`: writes `worker/lib/api/openapi/openapi.json`, the OpenAPI 3.1 document
 * that `GET /v1/openapi.json` serves, generated from the route table and its zod schemas
 * (`worker/lib/api/openapi/document.ts`). Generated at build time so the worker bundle carries
 * the document, not zod's JSON Schema converter and the route table (README "Sizes").
 * The file is committed, like a lockfile: `test/node/openapi-generated.test.ts` fails when it
 * is stale and says to run this script.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { openApiDocument } from "../worker/lib/api/openapi/document.ts";

/** Where the generated document lives (imported by `worker/lib/api/openapi/published.ts`). */
export const GENERATED_PATH = fileURLToPath(
  new URL("../worker/lib/api/openapi/openapi.json", import.meta.url),
);

/**
 * The generated file's text: the document, indented for readable diffs (the worker serves it
 * compact, exactly as `openApiJson()` writes it).
 *
 * @example
 * writeFileSync(GENERATED_PATH, generatedText());
 */
export function generatedText(): string {
  return `${JSON.stringify(openApiDocument(), null, 2)}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(GENERATED_PATH, generatedText());
  console.log(`Wrote ${GENERATED_PATH}`);
}
