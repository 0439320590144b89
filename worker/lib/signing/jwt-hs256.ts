/**
 * @module
 * Compact JWS (JWT) with HS256 only: decoding a part and verifying a token's signature and time
 * claims. It replaces `hono/jwt` in the worker (≈ 2.5 KB of the gzip bundle, README "Worker
 * bundle size") and keeps its verdicts for every token the checkout accepts or refuses, in the
 * same order: header (`typ` absent or `JWT`, no `crit`, `alg` exactly HS256), then `nbf`, then
 * `exp` (both against the worker's clock), then the signature. So an expired token is
 * "expired" whatever its signature, as before (`test/unit/jwt-hs256.test.ts` compares both
 * verifiers token by token).
 */
import { hmacKey } from "./hmac.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Why a token is refused: `expired` (exp passed) or `invalid` (anything else). */
export class JwtRefused extends Error {
  readonly reason: "expired" | "invalid";
  constructor(reason: "expired" | "invalid") {
    super(`JWT ${reason}`);
    this.reason = reason;
  }
}

/** The bytes of a base64url string (padding allowed, as `atob` takes it); throws when malformed. */
function base64UrlBytes(part: string): Uint8Array<ArrayBuffer> {
  const binary = atob(part.replace(/[-_]/g, (c) => (c === "-" ? "+" : "/")));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * The JSON value of one base64url part of a JWT; throws on bad base64 or bad JSON.
 *
 * @example
 * decodeJwtPart("eyJhbGciOiJIUzI1NiJ9") // { alg: "HS256" }
 */
export function decodeJwtPart(part: string): unknown {
  return JSON.parse(decoder.decode(base64UrlBytes(part)));
}

/** A `typ` header value that names a JWT (`JWT`, `jwt`, `application/jwt`). */
const isJwtTyp = (typ: unknown) =>
  typeof typ === "string" && typ.toLowerCase().replace(/^application\//, "") === "jwt";

/**
 * The payload of an HS256 token signed with `secret`, or throws `JwtRefused`. `nbf` and `exp`,
 * when present, must be finite numbers with `nbf ≤ now < exp`; `iat` is left to the caller.
 *
 * @example
 * const payload = await verifyHs256(token, secret); // throws JwtRefused("expired") after exp
 */
export async function verifyHs256(token: string, secret: string): Promise<unknown> {
  const parts = token.split(".");
  if (parts.length !== 3) throw new JwtRefused("invalid");
  let header: Record<string, unknown>;
  let payload: Record<string, unknown>;
  try {
    header = decodeJwtPart(parts[0] as string) as Record<string, unknown>;
    payload = decodeJwtPart(parts[1] as string) as Record<string, unknown>;
  } catch {
    throw new JwtRefused("invalid");
  }
  const headerOk =
    typeof header === "object" &&
    header !== null &&
    header.alg === "HS256" &&
    (!("typ" in header) || isJwtTyp(header.typ)) &&
    !("crit" in header);
  if (!headerOk) throw new JwtRefused("invalid");
  // A payload that is JSON `null` is refused like any unreadable token.
  if (payload === null) throw new JwtRefused("invalid");
  const now = Math.floor(Date.now() / 1000);
  const { nbf, exp } = payload;
  if (nbf !== undefined && (typeof nbf !== "number" || !Number.isFinite(nbf) || nbf > now)) {
    throw new JwtRefused("invalid");
  }
  if (exp !== undefined && (typeof exp !== "number" || !Number.isFinite(exp) || exp <= now)) {
    throw new JwtRefused("expired");
  }
  const signaturePart = parts[2] as string;
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(signaturePart)) throw new JwtRefused("invalid");
  let signature: Uint8Array<ArrayBuffer>;
  try {
    signature = base64UrlBytes(signaturePart);
  } catch {
    throw new JwtRefused("invalid");
  }
  const signed = encoder.encode(token.slice(0, token.lastIndexOf(".")));
  const key = await hmacKey(secret, "verify");
  if (!(await crypto.subtle.verify("HMAC", key, signature, signed))) {
    throw new JwtRefused("invalid");
  }
  return payload;
}
