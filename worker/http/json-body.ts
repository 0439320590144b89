/**
 * @module
 * Reads and validates a JSON request body with zod: 400 `bad_request` for a body that is not
 * JSON, 400 `validation_failed` naming the first bad field otherwise.
 */
import type { Context } from "hono";
import type * as z from "zod/mini";
import { ApiError } from "./api-error.ts";

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
    throw new ApiError(400, "validation_failed", `${where}: ${issue?.message ?? "invalid"}`);
  }
  return parsed.data;
}
