/**
 * @module
 * Reads a request body with a byte cap. Invariant: never holds more than `cap` bytes of a
 * body, whether or not it declared a content-length (a chunked body could be endless).
 */

/**
 * The body's bytes, or null as soon as it exceeds `cap` (the rest is cancelled, not read).
 *
 * @example
 * const raw = await readCapped(c.req.raw.body, 64 * 1024);
 * if (!raw) return errorResponse(413, "payload_too_large", "…");
 */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  cap: number,
): Promise<Uint8Array<ArrayBuffer> | null> {
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > cap) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}
