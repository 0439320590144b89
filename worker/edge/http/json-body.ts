/**
 * @module
 * Reads and validates a JSON request body (`lib/schema.ts`): 400 `bad_request` for a body that is not
 * JSON, 400 `validation_failed` naming the first bad field otherwise.
 */
import type { Context } from "hono";
import { ApiError } from "../../lib/api-error.ts";
import { check, type Schema } from "../../lib/schema.ts";

/**
 * @example
 * const { token } = await readJson(c, z.object({ token: z.string() }));
 */
export async function readJson<T>(c: Context, schema: Schema<T>): Promise<T> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw new ApiError(400, "bad_request", "The request body must be JSON.");
  }
  const parsed = check(schema, body);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const where = issue?.path.join(".") || "body";
    // A strict schema's unknown field: named, so a typo is never silently ignored.
    if (issue?.code === "unrecognized_keys") {
      const names = issue.keys.join(", ").slice(0, 100);
      throw new ApiError(400, "validation_failed", `${where}: unknown field ${names}`);
    }
    throw new ApiError(400, "validation_failed", `${where}: ${issue?.detail ?? "is not valid"}`);
  }
  return parsed.data;
}
