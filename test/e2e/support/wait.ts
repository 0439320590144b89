/**
 * @module
 * Polling for Node-side conditions (ledger, notifications, sandbox log) with a clear timeout.
 */

/**
 * Calls `probe` until it returns a value that is not `undefined`/`false`.
 *
 * @example
 * const ledger = await waitFor(async () => (await getLedger()).state === "paid" || undefined, "ledger paid");
 */
export async function waitFor<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  what: string,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(
    `timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${String(lastError)})` : ""}`,
  );
}
