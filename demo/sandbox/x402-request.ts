/**
 * @module x402-request
 * Reads the body of `POST /x402/verify` and `POST /x402/settle`
 * (`{x402Version, paymentPayload, paymentRequirements}`, as `@x402/core`'s
 * `HTTPFacilitatorClient` sends it) into typed, bounded values. A body that is not that shape
 * is a 400 `exceptions.validation.invalidBody` naming the field; a well-formed payment that
 * breaks a rule (wrong network, expired…) is not an error here: `x402-verify.ts` refuses it with
 * the protocol's reason.
 *
 * Bounds: the body is read up to `MAX_BODY_BYTES` and no further; every string has a length
 * cap; numbers are integers in range and uint256 strings have at most 78 digits and fit 2²⁵⁶.
 */
import type { Authorization, PaymentRequirements } from "../../worker/lib/x402/protocol.ts";
import { invalidBody } from "./wire.ts";

/** Largest body read: a payment is well under 4 KiB; extensions and resource may add some. */
export const MAX_BODY_BYTES = 65_536;

/** A verify or settle call, checked for shape. */
export interface FacilitatorCall {
  x402Version: number;
  /** `paymentPayload.x402Version`. */
  payloadVersion: number;
  /** `paymentPayload.accepted`: the requirements the payer says it signed for. */
  accepted: PaymentRequirements;
  requirements: PaymentRequirements;
  authorization: Authorization;
  /** `0x` hex. */
  signature: `0x${string}`;
}

type Json = Record<string, unknown>;

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const UINT = /^(?:0|[1-9][0-9]{0,77})$/;
const NONCE = /^0x[0-9a-fA-F]{64}$/;
const HEX = /^0x(?:[0-9a-fA-F]{2}){1,1024}$/;
const UINT256_MAX = (1n << 256n) - 1n;

/**
 * The request's body text, read chunk by chunk and given up past `maxBytes` (a declared
 * `content-length` over it is refused before reading anything).
 * @example
 * const text = await readBoundedText(c.req.raw, MAX_BODY_BYTES);
 */
export async function readBoundedText(request: Request, maxBytes: number): Promise<string> {
  const tooLarge = () => invalidBody(`Request body is larger than ${maxBytes} bytes`);
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge();
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw invalidBody("Request body is not UTF-8");
  }
}

function object(value: unknown, name: string): Json {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw invalidBody(`${name} must be an object`);
  }
  return value as Json;
}

function text(o: Json, key: string, where: string, max: number, shape?: RegExp): string {
  const v = o[key];
  const name = `${where}.${key}`;
  if (typeof v !== "string" || v.length === 0 || v.length > max) {
    throw invalidBody(`${name} must be a string of 1 to ${max} characters`);
  }
  if (shape && !shape.test(v)) throw invalidBody(`${name} is malformed`);
  return v;
}

function integer(o: Json, key: string, where: string, min: number, max: number): number {
  const v = o[key];
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < min || v > max) {
    throw invalidBody(`${where}.${key} must be an integer from ${min} to ${max}`);
  }
  return v;
}

function uint256(o: Json, key: string, where: string): string {
  const v = text(o, key, where, 78, UINT);
  if (BigInt(v) > UINT256_MAX) throw invalidBody(`${where}.${key} does not fit in uint256`);
  return v;
}

/** `extra`: a flat object of at most 16 members; `name`/`version` strings when present. */
function extra(o: Json, where: string): Record<string, unknown> {
  if (o.extra === undefined || o.extra === null) return {};
  const e = object(o.extra, `${where}.extra`);
  if (Object.keys(e).length > 16) throw invalidBody(`${where}.extra has too many members`);
  for (const key of ["name", "version"]) {
    if (e[key] !== undefined) text(e, key, `${where}.extra`, 64);
  }
  return e;
}

function requirements(value: unknown, where: string): PaymentRequirements {
  const o = object(value, where);
  return {
    scheme: text(o, "scheme", where, 32),
    network: text(o, "network", where, 64),
    asset: text(o, "asset", where, 42, ADDRESS),
    amount: uint256(o, "amount", where),
    payTo: text(o, "payTo", where, 42, ADDRESS),
    maxTimeoutSeconds: integer(o, "maxTimeoutSeconds", where, 1, 2_147_483_647),
    extra: extra(o, where),
  };
}

function authorization(value: unknown, where: string): Authorization {
  const o = object(value, where);
  return {
    from: text(o, "from", where, 42, ADDRESS),
    to: text(o, "to", where, 42, ADDRESS),
    value: uint256(o, "value", where),
    validAfter: uint256(o, "validAfter", where),
    validBefore: uint256(o, "validBefore", where),
    nonce: text(o, "nonce", where, 66, NONCE),
  };
}

/**
 * Parses a verify / settle body. Throws a 400 `exceptions.validation.invalidBody` naming the
 * first field that is missing, of the wrong type, too long or malformed.
 * @example
 * const call = parseFacilitatorCall(await readBoundedText(c.req.raw, MAX_BODY_BYTES));
 * call.authorization.nonce; // "0x…" (64 hex)
 */
export function parseFacilitatorCall(body: string): FacilitatorCall {
  if (body.trim() === "") throw invalidBody("Request body is empty");
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw invalidBody("Request body is not valid JSON");
  }
  const root = object(parsed, "body");
  const payment = object(root.paymentPayload, "paymentPayload");
  const inner = object(payment.payload, "paymentPayload.payload");
  return {
    x402Version: integer(root, "x402Version", "body", 0, 1000),
    payloadVersion: integer(payment, "x402Version", "paymentPayload", 0, 1000),
    accepted: requirements(payment.accepted, "paymentPayload.accepted"),
    requirements: requirements(root.paymentRequirements, "paymentRequirements"),
    authorization: authorization(inner.authorization, "paymentPayload.payload.authorization"),
    signature: text(inner, "signature", "paymentPayload.payload", 2050, HEX) as `0x${string}`,
  };
}
