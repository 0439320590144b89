/**
 * @module
 * base64url without padding (RFC 7515 §2), for JWT segments: no Buffer, so it runs on every
 * runtime the package supports.
 */

/**
 * @example
 * base64url(new TextEncoder().encode('{"alg":"HS256"}')); // "eyJhbGciOiJIUzI1NiJ9"
 */
export function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
}
