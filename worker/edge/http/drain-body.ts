/**
 * @module
 * Reads and drops what is left of a refused request body, so the refusal is answered once the
 * client is done sending. An HTTP/1.1 client still uploading when the answer arrives often sees
 * a reset connection instead (the server closes with unread bytes in flight), and never reads
 * the answer. Capped so a refusal never becomes a way to make the worker read without end: at
 * most `DRAIN_MAX_BYTES`, and no longer than `DRAIN_MAX_MS` for a client that stalls; past
 * either, the rest is cancelled and that client may see the reset it asked for.
 */

/** Most bytes of a refused body read and dropped: a widget's oversized upload, not a flood. */
export const DRAIN_MAX_BYTES = 4 * 1024 * 1024;

/** Longest wait for the rest of a refused body (a stalled client is not waited for). */
export const DRAIN_MAX_MS = 2_000;

/**
 * Reads `reader` to its end, dropping every byte, or cancels it past the caps. Never throws.
 *
 * @example
 * await drainBody(reader);
 * return errorResponse(413, "payload_too_large", "…");
 */
export async function drainBody(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), DRAIN_MAX_MS);
  });
  let read = 0;
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), late]);
      if (next === "late" || next.done) break;
      read += next.value.byteLength;
      if (read > DRAIN_MAX_BYTES) break;
    }
  } catch {
    // The client went away: nothing is left to read.
  } finally {
    clearTimeout(timer);
  }
  await reader.cancel().catch(() => {});
}
