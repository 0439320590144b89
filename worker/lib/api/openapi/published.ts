/**
 * @module
 * The OpenAPI document the worker serves (`GET /v1/openapi.json`): the build-time output of
 * `document.ts` (`npm run build:openapi` writes `openapi.json`, a test fails when that file is
 * stale), put among the static assets by the build (`scripts/openapi-asset.ts`) and read from
 * the `ASSETS` binding. So the worker bundle carries neither the document nor zod's JSON
 * Schema converter and the route table (README "Sizes").
 */
import { ApiError } from "../../api-error.ts";

/** The asset's path (`dist/public/v1/openapi.json`); only the worker reads it (`/v1/*` runs it first). */
export const OPENAPI_ASSET_PATH = "/v1/openapi.json";

/**
 * The document's compact JSON text as a stream (the same bytes as `openApiJson()` of
 * `document.ts`). A deployment built without it (no `npm run build:widget` before
 * `wrangler deploy`) gets 500 `internal` saying so, never an empty or foreign answer.
 *
 * @example
 * new Response(await publishedOpenApi(c.env.ASSETS, c.req.url), { headers });
 */
export async function publishedOpenApi(
  assets: { fetch(url: URL): Promise<Response> } | undefined,
  requestUrl: string,
): Promise<ReadableStream | null> {
  const asset = await assets?.fetch(new URL(OPENAPI_ASSET_PATH, requestUrl));
  if (asset?.status !== 200) {
    await asset?.body?.cancel();
    console.log(
      JSON.stringify({ level: "error", event: "openapi.missing", status: asset?.status }),
    );
    throw new ApiError(
      500,
      "internal",
      "The API document is missing from this deployment: run `npm run build:widget` before `wrangler deploy`.",
    );
  }
  return asset.body;
}
