/**
 * @module
 * Reads and validates a JSON request body with zod: 400 `bad_request` for a body that is not
 * JSON, 400 `validation_failed` naming the first bad field otherwise.
 */
import type { Context } from "hono";
import type * as z from "zod/mini";
import { ApiError } from "../../lib/api-error.ts";

/**
 * @example
 * const { token } = await readJson(c, z.object({ token: z.string() }));
 */
export async function readJson<S extends z.ZodMiniType>(
  c: Context,
  schema: S,
): Promise<z.output<S>> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw new ApiError(400, "bad_request", "The request body must be JSON.");
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join(".") || "body";
    // A strict schema's unknown field: named, so a typo is never silently ignored.
    if (issue?.code === "unrecognized_keys") {
      const names = issue.keys.join(", ").slice(0, 100);
      throw new ApiError(400, "validation_failed", `${where}: unknown field ${names}`);
    }
    throw new ApiError(400, "validation_failed", `${where}: ${issue?.message ?? "invalid"}`);
  }
  return parsed.data;
}
