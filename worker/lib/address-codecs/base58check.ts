/**
 * @module
 * Base58check (Bitcoin's alphabet; payload ‖ first 4 bytes of SHA-256(SHA-256(payload))), as
 * Bitcoin-family legacy addresses and Tron addresses use it.
 *
 * Invariants: no imports (the widget bundles this module into its on-demand `/address.js`);
 * SHA-256 comes from WebCrypto (`crypto.subtle`), present in workerd and in every secure
 * browser context, so decoding is async on both sides. Without WebCrypto it throws rather
 * than guess: a caller that may run without it (the widget on a plain-http page) decides.
 */

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/**
 * Base58 text to bytes (each leading `1` is a zero byte), or null for a character outside
 * the alphabet (`0`, `O`, `I`, `l`, anything else).
 *
 * @example
 * decodeBase58("12"); // Uint8Array [0, 1]
 */
export function decodeBase58(text: string): Uint8Array | null {
  let n = 0n;
  for (const c of text) {
    const v = ALPHABET.indexOf(c);
    if (v < 0) return null;
    n = n * 58n + BigInt(v);
  }
  const bytes: number[] = [];
  for (; n > 0n; n >>= 8n) bytes.unshift(Number(n & 255n));
  for (let i = 0; i < text.length && text[i] === "1"; i++) bytes.unshift(0);
  return new Uint8Array(bytes);
}

/**
 * The payload of a base58check string (version byte first), `checksum` when the last 4 bytes
 * are not the payload's double SHA-256 (a typo), or `invalid` when it is not base58 at all or
 * too short to carry a checksum.
 *
 * @example
 * await decodeBase58Check("1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2"); // 21 bytes, version 0x00
 * await decodeBase58Check("1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3"); // "checksum"
 */
export async function decodeBase58Check(
  text: string,
): Promise<Uint8Array | "checksum" | "invalid"> {
  const bytes = decodeBase58(text);
  if (!bytes || bytes.length < 5) return "invalid";
  const payload = bytes.slice(0, -4);
  const once = await crypto.subtle.digest("SHA-256", payload);
  const twice = new Uint8Array(await crypto.subtle.digest("SHA-256", once));
  for (let i = 0; i < 4; i++) if (bytes[payload.length + i] !== twice[i]) return "checksum";
  return payload;
}
