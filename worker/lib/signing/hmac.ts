/**
 * @module
 * HMAC-SHA256 with WebCrypto, shared by everything that signs or verifies: checkout ids,
 * merchant notifications and the service's webhooks. Keys are the UTF-8 bytes of the secret.
 */

const encoder = new TextEncoder();

/**
 * Imported keys by usage and secret. The worker signs and verifies with a handful of configured
 * secrets, so each is imported once per isolate instead of on every request (the import was a
 * WebCrypto round trip on every checkout create, webhook and notification). Bounded: an
 * isolate that somehow sees many secrets starts over rather than growing.
 */
const keys = new Map<string, Promise<CryptoKey>>();
const MAX_KEYS = 16;

/** An HMAC-SHA256 key for `sign` or `verify` (cached per isolate). */
export function hmacKey(secret: string, usage: "sign" | "verify"): Promise<CryptoKey> {
  const id = `${usage}:${secret}`;
  let key = keys.get(id);
  if (!key) {
    if (keys.size >= MAX_KEYS) keys.clear();
    key = crypto.subtle.importKey(
      "raw",
      encoder.encode(secret),
      { name: "HMAC", hash: "SHA-256" },
      false,
      [usage],
    );
    keys.set(id, key);
    // A failed import is not kept: the next call tries again.
    key.catch(() => keys.delete(id));
  }
  return key;
}

/**
 * The MAC of `message` (a string is taken as UTF-8).
 *
 * @example
 * toHex(await hmacSha256("key", "1767225600.{}")) // 64 hex chars
 */
export async function hmacSha256(
  secret: string,
  message: string | Uint8Array<ArrayBuffer>,
): Promise<Uint8Array> {
  const data = typeof message === "string" ? encoder.encode(message) : message;
  return new Uint8Array(await crypto.subtle.sign("HMAC", await hmacKey(secret, "sign"), data));
}

/** Lowercase hex of bytes. */
export function toHex(bytes: Uint8Array): string {
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}
