/**
 * @module
 * The OpenAPI document the worker serves (`GET /v1/openapi.json`): the build-time output of
 * `document.ts` (`npm run build:openapi` writes `openapi.json`), so the bundle carries the
 * document only, not zod's JSON Schema converter and the route table. A test fails when the
 * committed file is stale (`test/node/openapi-generated.test.ts`).
 */
import document from "./openapi.json" with { type: "json" };

let text: string | undefined;

/**
 * The document's JSON text, compact: the same bytes as `openApiJson()` of `document.ts`
 * (serialised once per isolate).
 *
 * @example
 * new Response(publishedOpenApiJson(), { headers: { "content-type": "application/json" } });
 */
export function publishedOpenApiJson(): string {
  text ??= JSON.stringify(document);
  return text;
}
