/**
 * @module
 * Reads and validates a request's query string (`lib/schema.ts`): 400 `validation_failed`
 * naming the first bad parameter, an unknown one (a typo is never a silent no-filter) or a
 * repeated one (`?status=paid&status=open` has no single meaning; none is picked silently).
 */
import type { Context } from "hono";
import { ApiError } from "../../lib/api-error.ts";
import { check, type Schema } from "../../lib/schema.ts";

/**
 * The query, validated.
 *
 * @example
 * const { limit } = readQuery(c, z.strictObject({ limit: z.optional(z.string()) }));
 */
export function readQuery<T>(c: Context, schema: Schema<T>): T {
  // The query string is parsed once: every key with all its values.
  const params = Object.entries(c.req.queries());
  const repeated = params.find(([, values]) => values.length > 1);
  if (repeated) {
    const key = repeated[0].slice(0, 100);
    throw new ApiError(400, "validation_failed", `Repeated query parameter: ${key}.`);
  }
  // One value per key now; `fromEntries` keeps a `__proto__` key an own (unknown) key.
  const parsed = check(schema, Object.fromEntries(params.map(([key, [value]]) => [key, value])));
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const unknown = issue?.code === "unrecognized_keys" ? issue.keys.join(", ") : null;
    throw new ApiError(
      400,
      "validation_failed",
      unknown
        ? `Unknown query parameter: ${unknown.slice(0, 100)}.`
        : `${issue?.path.join(".") || "query"} ${issue?.detail ?? "is not valid"}.`,
    );
  }
  return parsed.data;
}
