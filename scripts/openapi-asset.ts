/**
 * @module
 * Puts the OpenAPI document among the worker's static assets: `dist/public/v1/openapi.json`,
 * the committed `worker/lib/api/openapi/openapi.json` compacted to exactly the bytes
 * `GET /v1/openapi.json` serves (`worker/lib/api/openapi/published.ts` streams it from the
 * `ASSETS` binding, so the document is no part of the worker bundle: README "Sizes").
 * Written by the widget build (`npm run build:widget`, which deploys, the demo, the bench
 * and the e2e tests run first), by `npm run dev` and by the test config.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The committed document (`npm run build:openapi` writes it). */
export const OPENAPI_SOURCE = join(ROOT, "worker/lib/api/openapi/openapi.json");
/** Where the static asset goes; `/v1/*` reaches the worker first, which reads it from there. */
export const OPENAPI_ASSET = join(ROOT, "dist/public/v1/openapi.json");

/**
 * Writes the asset from the committed document; returns its path.
 *
 * @example
 * writeOpenApiAsset(); // dist/public/v1/openapi.json
 */
export function writeOpenApiAsset(): string {
  const compact = JSON.stringify(JSON.parse(readFileSync(OPENAPI_SOURCE, "utf8")));
  mkdirSync(dirname(OPENAPI_ASSET), { recursive: true });
  writeFileSync(OPENAPI_ASSET, compact);
  return OPENAPI_ASSET;
}
