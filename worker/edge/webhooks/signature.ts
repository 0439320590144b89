/**
 * @module
 * The service's webhook signature: `x-webhook-signature` = lowercase hex HMAC-SHA256 over the
 * exact raw body bytes, keyed by the UTF-8 bytes of the signing key as shown in the admin.
 *
 * Verification uses WebCrypto `verify`, which compares in constant time, and runs on the raw
 * bytes before any parsing (re-serialised JSON would not match).
 */

import { hmacKey, toHex } from "../../lib/signing/hmac.ts";

/** Why a signature was refused. */
export type SignatureProblem = "signature_missing" | "signature_malformed" | "signature_invalid";

function hexToBytes(hex: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/**
 * Checks a delivery; returns null when it is authentic.
 *
 * @example
 * const problem = await checkWebhookSignature(raw, c.req.header("x-webhook-signature"), key);
 * if (problem) return errorResponse(401, problem, "…");
 */
export async function checkWebhookSignature(
  raw: Uint8Array<ArrayBuffer>,
  header: string | null | undefined,
  signingKey: string,
): Promise<SignatureProblem | null> {
  const value = header?.trim() ?? "";
  if (value === "") return "signature_missing";
  if (!/^[0-9a-fA-F]{64}$/.test(value)) return "signature_malformed";
  const key = await hmacKey(signingKey, "verify");
  const ok = await crypto.subtle.verify("HMAC", key, hexToBytes(value.toLowerCase()), raw);
  return ok ? null : "signature_invalid";
}

/** SHA-256 hex of the raw body: the dedupe key of a delivery. */
export async function deliveryKey(raw: Uint8Array<ArrayBuffer>): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", raw)));
}
