/**
 * @module wire
 * The payment service's wire format as the sandbox speaks it: the `{data}` envelope, the list
 * envelope, the error body `{code, message, extension?}`, exact JSON numerals for amounts
 * (`JSON.rawJSON`) and exact JSON parsing (number source text kept via the reviver context).
 */
import { isDecimal, plain } from "./decimal.ts";

/** A JSON number from a request body, kept as its exact source text. */
export class RawNumber {
  readonly source: string;
  constructor(source: string) {
    this.source = source;
  }
}

/** An error the service answers with: HTTP status plus `exceptions.<area>.<reason>` code. */
export class WireError extends Error {
  readonly status: number;
  readonly code: string;
  readonly extension: Record<string, unknown> | undefined;
  constructor(status: number, code: string, message: string, extension?: Record<string, unknown>) {
    super(message);
    this.status = status;
    this.code = code;
    this.extension = extension;
  }
}

type RawJsonFn = (text: string) => unknown;
const rawJSON = (JSON as unknown as { rawJSON: RawJsonFn }).rawJSON;
type Reviver = (key: string, value: unknown, context: { source: string }) => unknown;

/**
 * Parses JSON keeping every number as a {@link RawNumber} with its exact source text.
 * Throws a 400 `exceptions.validation.invalidBody` on malformed text.
 * @example
 * (parseJsonExact('{"a":0.1}') as { a: RawNumber }).a.source; // "0.1"
 */
export function parseJsonExact(text: string): unknown {
  const reviver: Reviver = (_key, value, context) =>
    typeof value === "number" ? new RawNumber(context.source) : value;
  try {
    return JSON.parse(text, reviver as (key: string, value: unknown) => unknown);
  } catch {
    throw invalidBody("Request body is not valid JSON");
  }
}

/**
 * Converts a value for output: decimals and raw numbers become exact JSON numerals,
 * `undefined` object members are dropped.
 * @example
 * JSON.stringify(toWire({ a: new Dec("0.000000000000000001") })); // '{"a":0.000000000000000001}'
 */
export function toWire(value: unknown): unknown {
  if (isDecimal(value)) return rawJSON(plain(value));
  if (value instanceof RawNumber) return rawJSON(value.source);
  if (Array.isArray(value)) return value.map(toWire);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = toWire(v);
    return out;
  }
  return value;
}

/**
 * Serializes a value to the exact JSON text the sandbox sends.
 * @example
 * jsonText({ data: { amount: new Dec("100") } }); // '{"data":{"amount":100}}'
 */
export function jsonText(value: unknown): string {
  return JSON.stringify(toWire(value));
}

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8" };

/**
 * A success response wrapped in the `{data}` envelope.
 * @example
 * dataResponse({ id: "x" }, 201).status; // 201
 */
export function dataResponse(data: unknown, status = 200): Response {
  return new Response(jsonText({ data }), { status, headers: JSON_HEADERS });
}

/**
 * A paginated list response: `{data, total, page, limit, hasMore}`.
 * @example
 * listResponse(["a"], 1, 1, 20); // body {"data":["a"],"total":1,"page":1,"limit":20,"hasMore":false}
 */
export function listResponse(data: unknown[], total: number, page: number, limit: number) {
  const body = { data, total, page, limit, hasMore: page * limit < total };
  return new Response(jsonText(body), { status: 200, headers: JSON_HEADERS });
}

/**
 * A plain JSON response without the envelope (admin helpers that say so, e.g. health).
 * @example
 * plainJsonResponse({ ok: true }).status; // 200
 */
export function plainJsonResponse(body: unknown, status = 200): Response {
  return new Response(jsonText(body), { status, headers: JSON_HEADERS });
}

/**
 * The error body for a {@link WireError}.
 * @example
 * errorResponse(new WireError(401, "exceptions.auth.invalidApiKey", "Invalid API key")).status; // 401
 */
export function errorResponse(err: WireError): Response {
  const body: Record<string, unknown> = { code: err.code, message: err.message };
  if (err.extension) body.extension = err.extension;
  return new Response(jsonText(body), { status: err.status, headers: JSON_HEADERS });
}

/**
 * The 400 for a malformed or incomplete body (code assumed: the service's is not published).
 * @example
 * invalidBody("accountId is required").code; // "exceptions.validation.invalidBody"
 */
export function invalidBody(message: string): WireError {
  return new WireError(400, "exceptions.validation.invalidBody", message);
}

/**
 * The 400 for a malformed query parameter (code assumed).
 * @example
 * invalidQuery("page must be a positive integer").status; // 400
 */
export function invalidQuery(message: string): WireError {
  return new WireError(400, "exceptions.validation.invalidQuery", message);
}

/**
 * Reads a request body as exact JSON and requires a JSON object.
 * @example
 * const body = await readJsonObject(request);
 */
export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  const text = await request.text();
  if (text.trim() === "") throw invalidBody("Request body is empty");
  const value = parseJsonExact(text);
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw invalidBody("Request body must be a JSON object");
  }
  return value as Record<string, unknown>;
}
