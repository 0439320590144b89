/**
 * @module
 * TEMPORARY: the valibot schema as the worker ran it before zod/mini (differential test only).
 * The worker's runtime schemas are valibot's (README "Worker bundle size": ≈ 2.8 KB gzip where
 * zod/mini took ≈ 7 KB). This module owns the three places where the worker's answers depend
 * on how a schema library reports, so they stay what they were with zod (each proven against
 * the zod original by a differential test, `test/unit/*-valibot.test.ts`):
 * - `check(schema, input)`: a result shaped like zod's `safeParse` (`success`, `data`,
 *   `issues[].path` as keys, `code`); a message a schema does not name is "Invalid input"
 *   (zod/mini's), and an unknown-keys issue lists every unknown key of its object, as zod's
 *   `unrecognized_keys` does (valibot's names only the first);
 * - `object` / `strictObject`: refuse an array, as zod's objects do (valibot's take any
 *   `typeof "object"`: `[]` would pass a body whose fields are all optional), and a missing
 *   required key gets its own schema's message (valibot's object names it "Invalid input");
 * - `plainRecord`: a plain object of anything (zod's `z.record(z.string(), z.unknown())`),
 *   copied without a `__proto__` key, as zod's record copied it.
 */
import * as v from "valibot";

/** A schema whose output is T (whatever its input). */
export type Schema<T = unknown> = v.GenericSchema<unknown, T>;

/** One problem, as the routes report it. */
export interface Problem {
  /** Keys from the input's root to the bad value (`[]`: the input itself). */
  path: (string | number)[];
  message: string;
  /**
   * `invalid_type`: the value (or a required key) is missing or of another JSON type;
   * `unrecognized_keys`: a strict object's unknown keys (`keys`); `other`: a rule refused it
   * (also an array where `object` wants an object, which zod calls `invalid_type`: only the
   * configuration reads the code, and its input is always an object).
   */
  code: "invalid_type" | "unrecognized_keys" | "other";
  /** Every unknown key of the object at `path` (with `unrecognized_keys`), in input order. */
  keys: string[];
  /**
   * What a person reads: `message` when the schema names one, else what was wrong ("is
   * required", "must be a string", "must be at most 64 characters", …) where zod/mini (and
   * `message`, kept for parity) said only "Invalid input". The routes answer with it.
   */
  detail: string;
}

/** `check`'s answer: zod's `safeParse` shape, the issues already as `Problem`s. */
export type Checked<T> = { success: true; data: T } | { success: false; issues: Problem[] };

/** Schemas whose refusal is a value refused, not a type (zod: `invalid_value`, `custom`). */
const VALUE_KINDS = new Set(["picklist", "custom", "instance"]);

/** What zod's objects take: any object but an array (a `JsonNumber` too). */
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** What zod's records take: an object made by `{}` or `JSON.parse` (zod's `isPlainObject`). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isObject(value)) return false;
  const ctor = value.constructor;
  if (ctor === undefined || typeof ctor !== "function") return true;
  const prototype: unknown = ctor.prototype;
  return isObject(prototype) && Object.hasOwn(prototype, "isPrototypeOf");
}

const OPTIONAL_KINDS = new Set(["optional", "nullish", "exact_optional"]);

/**
 * The input with every absent required key present as `undefined`, so its schema runs and its
 * own message names it (zod runs a field's schema on `undefined`: a missing `amount` reads
 * "expected a number"; valibot would report every missing key as the object's "Invalid input").
 */
function withRequiredKeys(entries: v.ObjectEntries) {
  const required = Object.keys(entries).filter((key) => !OPTIONAL_KINDS.has(entries[key]!.type));
  return <T extends Record<string, unknown>>(input: T): T => {
    if (required.every((key) => key in input)) return input;
    const filled: Record<string, unknown> = { ...input };
    for (const key of required) if (!(key in filled)) filled[key] = undefined;
    return filled as T;
  };
}

/**
 * `v.object` as zod's `z.object` reads: an array is refused, and a missing required key is
 * refused by its own schema.
 *
 * @example
 * const body = object({ token: v.string() });
 */
export function object<E extends v.ObjectEntries>(entries: E) {
  // The guard takes the object's own input type, so the pipe's input is the object's.
  return v.pipe(
    v.custom<v.InferInput<v.ObjectSchema<E, undefined>>>(isObject),
    v.transform(withRequiredKeys(entries)),
    v.object(entries),
  );
}

/**
 * `v.strictObject` as zod's `z.strictObject` reads (see `object`).
 *
 * @example
 * const query = strictObject({ limit: v.optional(v.string()) });
 */
export function strictObject<E extends v.ObjectEntries>(entries: E) {
  return v.pipe(
    v.custom<v.InferInput<v.StrictObjectSchema<E, undefined>>>(isObject),
    v.transform(withRequiredKeys(entries)),
    v.strictObject(entries),
  );
}

/**
 * A copy of a record's own enumerable keys without `__proto__`, as zod's record built its
 * output: `parseExactJson` (like `JSON.parse`) keeps `"__proto__"` as an own key, and a later
 * `Object.assign` or `target[key] = value` copy of the record would make its value the copy's
 * prototype (a signed webhook's `data` could then lend a `status` it does not own).
 */
function withoutProtoKey(record: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(record)) if (key !== "__proto__") copy[key] = record[key];
  return copy;
}

/**
 * A JSON object of anything (zod's `z.record(z.string(), z.unknown())`): a fresh plain object
 * with its own enumerable keys but `__proto__` (the values themselves, not copied).
 *
 * @example
 * const envelope = object({ data: plainRecord() });
 */
export const plainRecord = () =>
  v.pipe(v.custom<Record<string, unknown>>(isPlainObject), v.transform(withoutProtoKey));

/**
 * The keys an object schema declares: of `object`/`strictObject` above (a pipe whose second
 * item is valibot's object) or of valibot's own.
 */
function entriesOf(schema: unknown): Record<string, unknown> | null {
  const s = schema as { entries?: Record<string, unknown>; pipe?: unknown[] };
  if (s.entries) return s.entries;
  for (const item of s.pipe ?? []) {
    const entries = (item as { entries?: Record<string, unknown> }).entries;
    if (entries) return entries;
  }
  return null;
}

/** The default message of an issue whose schema names none (zod/mini's). */
const UNNAMED = "Invalid input";

/** What a schema of each JSON type expected, in words (`detailOf`). */
const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: "a string",
  number: "a number",
  boolean: "true or false",
  array: "an array",
  object: "a JSON object",
  strict_object: "a JSON object",
};

/** Plain words for a refusal whose schema names no message (`Problem.detail`). */
function detailOf(issue: v.BaseIssue<unknown>): string {
  if (issue.message !== UNNAMED) return issue.message;
  if (issue.kind === "schema") {
    if (issue.input === undefined) return "is required";
    if (issue.type === "picklist") return `must be one of ${issue.expected}`;
    const kind = TYPE_WORDS[issue.type];
    if (kind) return `must be ${kind}`;
  }
  // The root guard of `object`/`strictObject`/`plainRecord` (a custom check) refused a body that
  // is not an object; deeper custom checks (a token's `exp`) say nothing more than "not valid".
  if (issue.type === "custom" && !issue.path?.length && !isObject(issue.input)) {
    return "must be a JSON object";
  }
  if (issue.type === "min_length") {
    return issue.requirement === 1
      ? "must not be empty"
      : `must be at least ${issue.requirement} characters`;
  }
  if (issue.type === "max_length") return `must be at most ${issue.requirement} characters`;
  if (issue.type === "regex") return "is not in the expected format";
  return "is not valid";
}

function problem(root: Schema, issue: v.BaseIssue<unknown>): Problem {
  const path = (issue.path ?? []).map((item) => item.key as string | number);
  // valibot names the first unknown key (its path ends with it); zod lists them all, at the
  // object's path. Only a root object is strict in the worker (queries, test bodies): there
  // every unknown key is listed, as zod did. A strict object nested deeper (none today) is
  // reported at its own path with the first unknown key only: still a 400, never a throw.
  if (issue.type === "strict_object" && issue.expected === "never") {
    const at = issue.path?.at(-1)?.input;
    const declared = entriesOf(root);
    if (path.length === 1 && declared && isObject(at)) {
      const keys = Object.keys(at).filter((key) => !Object.hasOwn(declared, key));
      const detail = `has an unknown field: ${keys.join(", ")}`;
      return { path: [], message: issue.message, code: "unrecognized_keys", keys, detail };
    }
    const unknown = String(path.at(-1));
    return {
      path: path.slice(0, -1),
      message: issue.message,
      code: "unrecognized_keys",
      keys: [unknown],
      detail: `has an unknown field: ${unknown}`,
    };
  }
  const code = issue.kind === "schema" && !VALUE_KINDS.has(issue.type) ? "invalid_type" : "other";
  return { path, message: issue.message, code, keys: [], detail: detailOf(issue) };
}

/**
 * Validates `input`: the schema's output, or every problem in zod's order.
 *
 * @example
 * const parsed = check(openCheckoutBody, body);
 * if (!parsed.success) console.log(parsed.issues[0]?.message);
 */
export function check<T>(schema: Schema<T>, input: unknown): Checked<T> {
  const result = v.safeParse(schema, input, { message: UNNAMED });
  if (result.success) return { success: true, data: result.output };
  return { success: false, issues: result.issues.map((issue) => problem(schema, issue)) };
}
