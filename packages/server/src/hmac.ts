/**
 * @module
 * HMAC-SHA256 with Web Crypto (`globalThis.crypto.subtle`: Node ≥ 20, Bun, Deno, Workers). Keys
 * are the UTF-8 bytes of the secret, as the worker's.
 */

const encoder = new TextEncoder();

/** Bytes of a string (UTF-8) or the bytes themselves. */
export const utf8 = (value: string | Uint8Array): Uint8Array<ArrayBuffer> =>
  typeof value === "string" ? encoder.encode(value) : new Uint8Array(value);

/**
 * An HMAC-SHA256 key for `sign` or `verify`.
 *
 * @example
 * const key = await hmacKey("secret", "sign");
 */
export function hmacKey(secret: string, usage: "sign" | "verify"): Promise<CryptoKey> {
  if (typeof secret !== "string" || secret.length === 0) {
    throw new TypeError("The secret must be a non-empty string.");
  }
  return crypto.subtle.importKey("raw", utf8(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    usage,
  ]);
}
