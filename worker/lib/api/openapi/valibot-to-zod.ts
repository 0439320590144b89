/**
 * @module
 * Build time only: the request schemas the routes validate with (valibot, `../schemas/requests.ts`
 * and `../merchant-ops.ts`) as zod/mini schemas, so `document.ts` describes them with zod's JSON
 * Schema output exactly as before the worker moved to valibot (README "Worker bundle size").
 * Only the kinds those schemas use are converted (objects, strings with regex/length/trim
 * actions, optional, picklist); anything else throws, so a new kind cannot be described wrong
 * silently. `npm run build:openapi` regenerating no diff is the proof of the conversion.
 */
import type * as v from "valibot";
import * as z from "zod/mini";

type AnySchema = v.BaseSchema<unknown, unknown, v.BaseIssue<unknown>>;
type Item = { kind: string; type: string; requirement?: unknown };

/** Converted schemas by identity: a valibot schema used twice is one zod schema. */
const converted = new Map<unknown, z.ZodMiniType>();

function stringChecks(items: readonly Item[]): z.core.$ZodCheck<string>[] {
  return items.map((item) => {
    if (item.type === "regex") return z.regex(item.requirement as RegExp);
    if (item.type === "min_length") return z.minLength(item.requirement as number);
    if (item.type === "max_length") return z.maxLength(item.requirement as number);
    if (item.type === "trim") return z.trim();
    throw new Error(`valibot-to-zod: no conversion for the string action ${item.type}`);
  });
}

function shapeOf(entries: Record<string, AnySchema>): Record<string, z.ZodMiniType> {
  return Object.fromEntries(Object.entries(entries).map(([key, value]) => [key, zodOf(value)]));
}

function convert(schema: AnySchema): z.ZodMiniType {
  const s = schema as unknown as {
    type: string;
    pipe?: readonly Item[];
    entries?: Record<string, AnySchema>;
    wrapped?: AnySchema;
    default?: unknown;
    options?: readonly string[];
  };
  if (s.pipe) {
    const [root, ...items] = s.pipe;
    // `lib/schema.ts`'s object: an array guard, the missing keys named, valibot's object.
    const inner = items.find((item) => item.kind === "schema");
    if (root?.type === "custom" && inner && items.length === 2) return zodOf(inner as AnySchema);
    if (root?.type === "string") return z.string().check(...stringChecks(items));
    throw new Error(`valibot-to-zod: no conversion for a pipe on ${root?.type}`);
  }
  if (s.type === "string") return z.string();
  if (s.type === "object") return z.object(shapeOf(s.entries!));
  if (s.type === "strict_object") return z.strictObject(shapeOf(s.entries!));
  if (s.type === "picklist") return z.enum(s.options as [string, ...string[]]);
  if (s.type === "optional" && s.default === undefined) return z.optional(zodOf(s.wrapped!));
  throw new Error(`valibot-to-zod: no conversion for ${s.type}`);
}

/**
 * The zod/mini schema describing what a valibot request schema accepts.
 *
 * @example
 * zodOf(openCheckoutBody); // z.object({ token: z.string().check(z.minLength(1), …) })
 */
export function zodOf(schema: AnySchema): z.ZodMiniType {
  let zod = converted.get(schema);
  if (!zod) {
    zod = convert(schema);
    converted.set(schema, zod);
  }
  return zod;
}
