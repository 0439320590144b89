/**
 * @module check-wire
 * Checks what the sandbox sent (`demo/sandbox/wire-observer.ts`) against the service's wire
 * format (`wire-schemas.ts`): a success answer against the schema of its route, an error answer
 * against the error body with a code the service publishes or one listed in the sandbox's table
 * of unpublished codes (demo/sandbox/README.md, "Error codes the service does not publish"), and
 * a webhook body against the SDK's webhook types. Returns readable violations, never throws.
 */
import { readFileSync } from "node:fs";
import type { WireObservation } from "../../demo/sandbox/wire-observer.ts";
import { answerSchema, errorBody, PUBLISHED_ERROR_CODES, webhookBody } from "./wire-schemas.ts";

const README = new URL("../../demo/sandbox/README.md", import.meta.url);
const TABLE_HEADING = "### Error codes the service does not publish";

/**
 * The codes in the sandbox README's table of unpublished codes (the one place they are listed):
 * every backticked `exceptions.…` code in the table's first column.
 * @example
 * unpublishedCodes().has("exceptions.route.notFound"); // true
 */
export function unpublishedCodes(readme = readFileSync(README, "utf8")): Set<string> {
  const start = readme.indexOf(TABLE_HEADING);
  if (start < 0) throw new Error(`demo/sandbox/README.md has no "${TABLE_HEADING}" section`);
  const section = readme.slice(start + TABLE_HEADING.length).split(/\n#{2,3} /)[0] ?? "";
  const codes = new Set<string>();
  for (const line of section.split("\n")) {
    const first = /^\|([^|]*)\|/.exec(line)?.[1] ?? "";
    for (const m of first.matchAll(/`(exceptions\.[A-Za-z0-9]+\.[A-Za-z0-9]+)`/g)) codes.add(m[1]!);
  }
  return codes;
}

function parse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function issues(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.map(String).join(".") || "(root)"}: ${i.message}`)
    .join("; ");
}

function answerViolation(o: Extract<WireObservation, { kind: "answer" }>, allowed: Set<string>) {
  const where = `${o.method} ${o.path} → ${o.status}`;
  // The hosted page (`/pay/…`) is HTML for a browser, not the merchant API.
  if (o.path.startsWith("/pay/")) return null;
  if (o.status >= 200 && o.status < 300) {
    const schema = answerSchema(o.method, o.path);
    if (schema === undefined) return `${where}: a success answer on a route the SDK does not name`;
    if (schema === null) return o.body === "" ? null : `${where}: expected no body`;
    const json = parse(o.body);
    if (!json.ok) return `${where}: not JSON`;
    const result = schema.safeParse(json.value);
    return result.success ? null : `${where}: ${issues(result.error)}`;
  }
  const json = parse(o.body);
  if (!json.ok) return `${where}: error body is not JSON`;
  const result = errorBody.safeParse(json.value);
  if (!result.success) return `${where}: ${issues(result.error)}`;
  const { code } = result.data;
  if (PUBLISHED_ERROR_CODES.has(code) || allowed.has(code)) return null;
  return `${where}: ${code} is neither published nor in the sandbox README's unpublished-codes table`;
}

/**
 * The violations among `observations` (empty when all conform).
 * @example
 * wireViolations([{ kind: "webhook", body: "{}" }]); // ["webhook: event: …"]
 */
export function wireViolations(
  observations: readonly WireObservation[],
  allowed: Set<string> = unpublishedCodes(),
): string[] {
  const out: string[] = [];
  for (const o of observations) {
    if (o.kind === "answer") {
      const v = answerViolation(o, allowed);
      if (v) out.push(v);
      continue;
    }
    const json = parse(o.body);
    const result = json.ok ? webhookBody.safeParse(json.value) : null;
    if (!result) out.push("webhook: not JSON");
    else if (!result.success) out.push(`webhook ${o.body.slice(0, 60)}…: ${issues(result.error)}`);
  }
  return out;
}
