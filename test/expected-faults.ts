/**
 * @module
 * Deliberate faults stay quiet; anything else still shows. Tests that restart a Durable Object
 * on purpose (`state.abort(reason)`) make workerd print "uncaught exception … <reason>" with a
 * stack: about a hundred lines in a green `npm test`, in which a real failure would hide. Each
 * deliberate reason carries `EXPECTED_FAULT`, and `quietExpectedFaults` drops only the output
 * that carries it.
 *
 * Invariant: the filter is the marker, never the kind of message: an uncaught exception without
 * the marker (a real bug) is printed, in full.
 */

/** The mark of a fault a test injects on purpose. */
export const EXPECTED_FAULT = "[expected fault]";

/**
 * An abort reason for a deliberate restart: `state.abort(expectedFault("restart"))`.
 *
 * @example
 * expectedFault("restart") // "[expected fault] restart"
 */
export const expectedFault = (reason: string) => `${EXPECTED_FAULT} ${reason}`;

/**
 * Drops, from this process's stdout and stderr, each write that carries `EXPECTED_FAULT`; every
 * other write goes through unchanged. Installed once by `vitest.config.mts`: the Workers pool
 * prints workerd's logs from the Vitest process itself, with its own log handler (a
 * `handleStructuredLogs` of ours would be overridden), one write per log entry.
 *
 * @example
 * quietExpectedFaults(); // in vitest.config.mts
 */
export function quietExpectedFaults(
  streams: { write: NodeJS.WriteStream["write"] }[] = [process.stdout, process.stderr],
): void {
  for (const stream of streams) {
    const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
    if ((write as { quiet?: boolean }).quiet) continue;
    const quiet = (chunk: unknown, ...rest: unknown[]) =>
      String(chunk).includes(EXPECTED_FAULT) ? true : write(chunk, ...rest);
    stream.write = Object.assign(quiet, { quiet: true }) as typeof stream.write;
  }
}
