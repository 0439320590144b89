/**
 * @module
 * Reads a request body with a byte cap, for every route that bounds its body (the widget
 * routes' `limitBody`, the webhook route). Invariant: never holds more than `cap` bytes of a
 * body, whether or not it declared a content-length (a chunked body could be endless).
 */

/**
 * Reads `reader` to its end, or stops at the first chunk past `cap` and answers null, leaving
 * what is unread to the caller (cancel it, or drain it so the client reads the answer).
 *
 * @example
 * const bytes = await readUpTo(body.getReader(), 16 * 1024);
 * if (!bytes) await drainBody(reader);
 */
export async function readUpTo(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  cap: number,
): Promise<Uint8Array<ArrayBuffer> | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > cap) return null;
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
  const bytes = await readUpTo(reader, cap);
  if (!bytes) await reader.cancel().catch(() => {});
  return bytes;
}
