/**
 * @module fields
 * Readers for request body fields and query parameters. Every bad field is a 400 with a clear
 * message. Amounts are read exactly from JSON numbers: the service takes numbers, so an amount
 * sent as a JSON string is a 400 `exceptions.validation.invalidBody` (*assumed* code: the
 * service's answer to a string amount is not published). Only the sandbox's own admin helpers
 * (`readAdminAmount`) also take decimal strings. Numerals longer than `MAX_NUMERAL_LENGTH` or
 * with an exponent beyond `MAX_EXPONENT` are the same 400, never expanded.
 */
import { type Decimal, numeralInRange, parseDecimalString, parseNumberText } from "./decimal.ts";
import { invalidBody, invalidQuery, RawNumber } from "./wire.ts";

type Body = Record<string, unknown>;

/**
 * A required non-empty string field.
 * @example
 * requiredString({ orderId: "A-1" }, "orderId"); // "A-1"
 */
export function requiredString(body: Body, name: string): string {
  const v = body[name];
  if (typeof v !== "string" || v.trim() === "") throw invalidBody(`${name} is required`);
  return v;
}

/**
 * An optional string field: absent or null gives null.
 * @example
 * optionalString({}, "description"); // null
 */
export function optionalString(body: Body, name: string): string | null {
  const v = body[name];
  if (v === undefined || v === null) return null;
  if (typeof v !== "string") throw invalidBody(`${name} must be a string`);
  return v;
}

/**
 * An optional http(s) URL field.
 * @example
 * optionalUrl({ webhookUrl: "https://shop.example/hook" }, "webhookUrl");
 */
export function optionalUrl(body: Body, name: string): string | null {
  const v = optionalString(body, name);
  if (v === null) return null;
  if (!/^https?:\/\/\S+$/.test(v) || !URL.canParse(v)) throw invalidBody(`${name} must be a URL`);
  return v;
}

/**
 * Reads a wire amount: a non-negative JSON number; null when absent. A string, even
 * `"12.50"`, is rejected: the real service takes JSON numbers only.
 * @example
 * readAmount({ amount: new RawNumber("12.5") }, "amount")?.toFixed(); // "12.5"
 * readAmount({ amount: "12.5" }, "amount"); // throws 400 exceptions.validation.invalidBody
 */
export function readAmount(body: Body, name: string): Decimal | null {
  const v = body[name];
  if (v === undefined || v === null) return null;
  if (!(v instanceof RawNumber)) throw invalidBody(`${name} must be a JSON number`);
  return nonNegative(name, v.source, parseNumberText(v.source));
}

/**
 * Reads a wire amount that may be negative (a JSON number; null when absent), for the fields
 * whose sign has its own published error code (a withdrawal's `amountMustBePositive`, an
 * invoice's `amountBelowMinimum`): the caller checks the sign.
 * @example
 * readSignedAmount({ amount: new RawNumber("-5") }, "amount")?.toFixed(); // "-5"
 */
export function readSignedAmount(body: Body, name: string): Decimal | null {
  const v = body[name];
  if (v === undefined || v === null) return null;
  if (!(v instanceof RawNumber)) throw invalidBody(`${name} must be a JSON number`);
  if (!numeralInRange(v.source.trim())) throw invalidBody(`${name} is out of range`);
  const parsed = parseNumberText(v.source);
  if (parsed === null) throw invalidBody(`${name} must be a decimal`);
  return parsed;
}

/**
 * Reads an amount of a sandbox admin helper (not part of the service's wire): a JSON number
 * or a plain decimal string such as `"30.5"`; null when absent.
 * @example
 * readAdminAmount({ amount: "30.5" }, "amount")?.toFixed(); // "30.5"
 */
export function readAdminAmount(body: Body, name: string): Decimal | null {
  const v = body[name];
  if (v === undefined || v === null) return null;
  if (v instanceof RawNumber) return nonNegative(name, v.source, parseNumberText(v.source));
  if (typeof v === "string") return nonNegative(name, v, parseDecimalString(v.trim()));
  throw invalidBody(`${name} must be a non-negative decimal`);
}

function nonNegative(name: string, text: string, parsed: Decimal | null): Decimal {
  if (!numeralInRange(text.trim())) throw invalidBody(`${name} is out of range`);
  if (parsed === null || parsed.lt("0"))
    throw invalidBody(`${name} must be a non-negative decimal`);
  return parsed;
}

/**
 * An optional integer field (JSON number or numeric string) within bounds.
 * @example
 * optionalInt({ expiresInMinutes: new RawNumber("30") }, "expiresInMinutes", 1, 10080); // 30
 */
export function optionalInt(body: Body, name: string, min: number, max: number): number | null {
  const v = body[name];
  if (v === undefined || v === null) return null;
  const text = v instanceof RawNumber ? v.source : typeof v === "string" ? v : "";
  const n = /^-?\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw invalidBody(`${name} must be an integer from ${min} to ${max}`);
  }
  return n;
}

/**
 * An optional boolean field.
 * @example
 * optionalBool({ allowAutoConvert: true }, "allowAutoConvert"); // true
 */
export function optionalBool(body: Body, name: string): boolean | null {
  const v = body[name];
  if (v === undefined || v === null) return null;
  if (typeof v !== "boolean") throw invalidBody(`${name} must be a boolean`);
  return v;
}

/**
 * A positive integer query parameter with a default.
 * @example
 * queryInt(new URLSearchParams("page=2"), "page", 1, 1000); // 2
 */
export function queryInt(q: URLSearchParams, name: string, fallback: number, max: number): number {
  const v = q.get(name);
  if (v === null || v === "") return fallback;
  const n = /^\d+$/.test(v) ? Number(v) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > max) {
    throw invalidQuery(`${name} must be an integer from 1 to ${max}`);
  }
  return n;
}
