/**
 * @module
 * The worker's runtime schemas are zod's (`zod/mini`, the OpenAPI document's library too). This
 * module owns how a refusal reaches a caller: `check(schema, input)` answers zod's `safeParse`
 * shape with each issue as a `Problem`: its path, zod's message ("Invalid input" where the
 * schema names none, whatever locale another module may have configured), the unknown keys of
 * a strict object, and `detail`, the words the routes answer with ("is required", "must be a
 * string", "must be at most 64 characters", …).
 */
import type * as z from "zod/mini";

/** A schema whose output is T (whatever its input). */
export type Schema<T = unknown> = z.ZodMiniType<T>;

/** One problem, as the routes report it. */
export interface Problem {
  /** Keys from the input's root to the bad value (`[]`: the input itself). */
  path: (string | number)[];
  message: string;
  /**
   * `invalid_type`: the value (or a required key) is missing or of another JSON type;
   * `unrecognized_keys`: a strict object's unknown keys (`keys`); `other`: a rule refused it.
   */
  code: "invalid_type" | "unrecognized_keys" | "other";
  /** Every unknown key of the object at `path` (with `unrecognized_keys`), in input order. */
  keys: string[];
  /**
   * What a person reads: `message` when the schema names one, else what was wrong ("is
   * required", "must be a string", "must be at most 64 characters", …) where `message` says
   * only "Invalid input". The routes answer with it.
   */
  detail: string;
}

/** `check`'s answer: zod's `safeParse` shape, the issues already as `Problem`s. */
export type Checked<T> = { success: true; data: T } | { success: false; issues: Problem[] };

/** The message of an issue whose schema names none. */
const UNNAMED = "Invalid input";

/** What a schema of each JSON type expected, in words (`detailOf`). */
const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: "a string",
  number: "a number",
  boolean: "true or false",
  array: "an array",
  object: "a JSON object",
  record: "a JSON object",
};

/** An enum's values as a person reads them: `"a"`, or `("a" | "b")`. */
function listed(values: readonly unknown[]): string {
  const each = values.map((value) => (typeof value === "string" ? `"${value}"` : String(value)));
  return each.length === 1 ? each[0]! : `(${each.join(" | ")})`;
}

/** Plain words for a refusal whose schema names no message (`Problem.detail`). */
function detailOf(issue: z.core.$ZodIssue): string {
  if (issue.message !== UNNAMED) return issue.message;
  // A required key absent: its schema ran on `undefined` (a type, a list or a custom test).
  const absent = (issue as { input?: unknown }).input === undefined;
  switch (issue.code) {
    case "invalid_type": {
      if (absent) return "is required";
      const kind = TYPE_WORDS[issue.expected];
      return kind ? `must be ${kind}` : "is not valid";
    }
    case "invalid_value":
      return absent ? "is required" : `must be one of ${listed(issue.values)}`;
    case "custom":
      return absent ? "is required" : "is not valid";
    case "too_small":
      if (issue.origin !== "string") return "is not valid";
      return Number(issue.minimum) === 1
        ? "must not be empty"
        : `must be at least ${issue.minimum} characters`;
    case "too_big":
      return issue.origin === "string"
        ? `must be at most ${issue.maximum} characters`
        : "is not valid";
    case "invalid_format":
      return issue.format === "regex" ? "is not in the expected format" : "is not valid";
    default:
      return "is not valid";
  }
}

function problem(issue: z.core.$ZodIssue): Problem {
  const path = issue.path.map((key) => (typeof key === "number" ? key : String(key)));
  if (issue.code === "unrecognized_keys") {
    const detail = `has an unknown field: ${issue.keys.join(", ")}`;
    return { path, message: issue.message, code: "unrecognized_keys", keys: issue.keys, detail };
  }
  const code = issue.code === "invalid_type" ? "invalid_type" : "other";
  return { path, message: issue.message, code, keys: [], detail: detailOf(issue) };
}

/**
 * Validates `input`: the schema's output, or every problem in zod's order.
 *
 * @example
 * const parsed = check(openCheckoutBody, body);
 * if (!parsed.success) console.log(parsed.issues[0]?.detail);
 */
export function check<T>(schema: Schema<T>, input: unknown): Checked<T> {
  // `reportInput`: `detailOf` tells an absent key by its input. `error`: a message the schema
  // does not name is "Invalid input", whichever locale (`z.config`) is loaded beside us.
  const result = schema.safeParse(input, { reportInput: true, error: () => UNNAMED });
  if (result.success) return { success: true, data: result.data };
  return { success: false, issues: result.error.issues.map(problem) };
}
