/**
 * @module
 * Parses `x-checkout-signature: t=<unix seconds>,v1=<hex>[,v1=<hex>…]`. Several `v1` entries are
 * allowed (a secret being rotated signs with both); unknown keys are ignored so that a future
 * scheme (`v2=`) can be added beside `v1`.
 *
 * The header is taken as frameworks hand it over: a string, or an array of the header's
 * occurrences (Node's `IncomingMessage.headers` / `headersDistinct` give one). One occurrence
 * is the header; several have no single meaning and none is picked. Whatever is passed, a bad
 * header is a `NotificationVerificationError`, never a `TypeError`: plain JavaScript may hand
 * over anything, and the package promises that one error type.
 */
import { NotificationVerificationError } from "./errors.ts";

/** A parsed signature header. */
export interface SignatureHeader {
  /** Unix seconds the worker signed at. */
  timestamp: number;
  /** Each `v1` MAC (32 bytes). */
  signatures: Uint8Array<ArrayBuffer>[];
}

/** The header as a framework hands it over: a string, its occurrences, or nothing. */
export type SignatureHeaderInput = string | readonly string[] | null | undefined;

/** Longest header accepted: a few signatures, never an unbounded list. */
const MAX_HEADER_LENGTH = 1024;

const hexBytes = (hex: string) =>
  new Uint8Array(hex.match(/../g)!.map((pair) => Number.parseInt(pair, 16)));

const missing = () =>
  new NotificationVerificationError(
    "signature_missing",
    "The x-checkout-signature header is missing.",
  );
const malformed = (why = "is not t=<unix seconds>,v1=<hex>") =>
  new NotificationVerificationError(
    "signature_malformed",
    `The x-checkout-signature header ${why}.`,
  );

/** The one header string in `input`; undefined when there is none (checked at run time). */
function oneHeader(input: unknown): string | undefined {
  let value = input;
  if (Array.isArray(value)) {
    if (value.length > 1) throw malformed("was sent more than once");
    value = value[0];
  }
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw malformed("is not a string");
  return value;
}

/**
 * @example
 * parseSignatureHeader("t=1767225600,v1=5f0c…"); // { timestamp: 1767225600, signatures: [Uint8Array(32)] }
 * parseSignatureHeader(req.headers["x-checkout-signature"]); // Node: string | string[] | undefined
 */
export function parseSignatureHeader(input: SignatureHeaderInput): SignatureHeader {
  const header = oneHeader(input);
  if (header === undefined || header.trim() === "") throw missing();
  if (header.length > MAX_HEADER_LENGTH) throw malformed();
  let timestamp: number | undefined;
  const signatures: Uint8Array<ArrayBuffer>[] = [];
  for (const part of header.split(",")) {
    const at = part.indexOf("=");
    if (at < 1) throw malformed();
    const key = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (key === "t") {
      if (timestamp !== undefined || !/^\d{1,12}$/.test(value)) throw malformed();
      timestamp = Number(value);
    } else if (key === "v1") {
      if (!/^[0-9a-fA-F]{64}$/.test(value)) throw malformed();
      signatures.push(hexBytes(value));
    }
  }
  if (timestamp === undefined || signatures.length === 0) throw malformed();
  return { timestamp, signatures };
}
