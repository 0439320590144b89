/**
 * Checks a real answer of the worker against the OpenAPI document (`GET /v1/openapi.json`):
 * the route and status are documented, the content type is the documented one, and a JSON
 * body validates against the documented schema (JSON Schema 2020-12, `@cfworker/json-schema`,
 * which runs inside workerd). `helpers.ts`'s `worker()` runs it on every answer of every worker
 * and simulation test, so each route's real answers are checked, not just examples.
 */
import { type Schema, Validator } from "@cfworker/json-schema";
import { openApiDocument } from "../../worker/lib/api/openapi/document.ts";

interface MediaType {
  schema: Schema;
}
interface ResponseSpec {
  content?: Record<string, MediaType>;
}
interface OperationSpec {
  responses: Record<string, ResponseSpec>;
}
interface Document {
  paths: Record<string, Record<string, OperationSpec>>;
  components: Record<string, unknown>;
}

const document = openApiDocument() as unknown as Document;

/** Templates, fixed paths first (`/v1/orders.csv` before `/v1/orders/{invoiceNumber}`). */
const templates = Object.keys(document.paths)
  .map((path) => ({
    path,
    params: (path.match(/\{/g) ?? []).length,
    pattern: new RegExp(`^${path.replace(/[.]/g, "\\.").replace(/\{[^}]+\}/g, "[^/]+")}$`),
  }))
  .sort((a, b) => a.params - b.params);

const validators = new Map<Schema, Validator>();

function validatorFor(schema: Schema): Validator {
  let validator = validators.get(schema);
  if (!validator) {
    // The schema is a $ref into components: resolve it inside a document that carries them.
    validator = new Validator(
      { ...schema, components: document.components } as Schema,
      "2020-12",
      false,
    );
    validators.set(schema, validator);
  }
  return validator;
}

function fail(what: string, problem: string): never {
  throw new Error(`OpenAPI conformance: ${what}: ${problem}`);
}

/**
 * Throws when `response` (to `method url`) is not what the document says. Reads a clone, so
 * the caller can still read the body.
 *
 * @example
 * await checkAnswer("GET", "http://x/v1/orders/1001", response);
 */
export async function checkAnswer(method: string, url: string, response: Response): Promise<void> {
  const path = new URL(url).pathname;
  const verb = method.toLowerCase();
  if (!path.startsWith("/v1/") || (verb !== "get" && verb !== "post")) return;
  const what = `${method} ${path} → ${response.status}`;
  const template = templates.find((t) => t.pattern.test(path));
  const operation = template ? document.paths[template.path]![verb] : undefined;
  const status = String(response.status);
  let spec: ResponseSpec | undefined;
  if (operation) {
    spec =
      operation.responses[status] ??
      (response.status >= 400 ? operation.responses.default : undefined);
    if (!spec) fail(what, `status ${status} is not documented for ${template!.path}`);
  } else if (response.status === 404 || response.status === 405 || response.status === 503) {
    // Undocumented paths only ever answer a JSON error (not found, or not configured).
    spec = document.paths["/v1/orders/{invoiceNumber}"]!.get!.responses.default;
  } else {
    fail(what, "the path is not in the document");
  }
  const contentType = (response.headers.get("content-type") ?? "").split(";")[0]!.trim();
  if (!spec!.content) {
    if (response.body !== null && contentType !== "") fail(what, "a body where none is documented");
    return;
  }
  const media = spec!.content[contentType];
  if (!media) fail(what, `content type "${contentType}" is not documented`);
  if (contentType !== "application/json") return;
  const body = (await response.clone().json()) as unknown;
  const result = validatorFor(media!.schema).validate(body);
  if (!result.valid) {
    const errors = result.errors
      .slice(-3)
      .map((e) => `${e.instanceLocation} ${e.error}`)
      .join("; ");
    fail(what, `${errors} in ${JSON.stringify(body).slice(0, 300)}`);
  }
}
