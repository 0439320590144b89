/**
 * @module
 * Deliberate faults stay quiet; anything else still shows. Tests that restart a Durable Object
 * on purpose (`state.abort(reason)`) make workerd print "uncaught exception … <reason>" with a
 * stack: about a hundred lines in a green `npm test`, in which a real failure would hide. Each
 * deliberate reason carries `EXPECTED_FAULT`, and `quietExpectedFaults` drops only the output
 * that carries it.
 *
 * An abort also breaks what was in flight to the object, and workerd reports each broken call
 * again, without the reason: "uncaught exception … Network connection lost" (or "disconnected:
 * client error (SendRequest)"), with a stack. Those follow-ups are dropped too, but only within
 * `AFTERMATH_MS` of a marked write, and only with those exact disconnect words.
 *
 * Invariant: nothing is dropped by its kind alone: an uncaught exception that neither carries
 * the marker nor is a disconnect right after a marked fault (a real bug, or a disconnect with
 * no deliberate fault before it) is printed, in full.
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
 * Opens the window for a fault that carries no reason of ours (a call to a closed port: workerd
 * prints "Connection refused" and "Network connection lost"): call it just before.
 *
 * @example
 * announceExpectedFault("the service is unreachable");
 * await doctorWith({ UPSTREAM_BASE_URL: "http://127.0.0.1:1" });
 */
export const announceExpectedFault = (reason: string) => console.warn(expectedFault(reason));

/** How long after a marked fault its disconnect follow-ups are still recognised. */
export const AFTERMATH_MS = 5000;

/** workerd's words for a call broken by an abort (no reason of ours in them). */
const DISCONNECT =
  /Network connection lost|disconnected: client error \(SendRequest\)|disconnected: Connection refused/;

/**
 * Decides write by write what to drop, for one process: marked writes, and disconnect reports
 * within `AFTERMATH_MS` of the last marked write. `now` is injectable for tests.
 *
 * @example
 * const drop = faultFilter();
 * drop("uncaught exception; [expected fault] restart"); // true
 * drop("uncaught exception; Error: Network connection lost."); // true (right after)
 * drop("uncaught exception; TypeError: x is undefined"); // false
 */
export function faultFilter(now: () => number = Date.now): (text: string) => boolean {
  let lastFault = Number.NEGATIVE_INFINITY;
  return (text) => {
    if (text.includes(EXPECTED_FAULT)) {
      lastFault = now();
      return true;
    }
    return now() - lastFault <= AFTERMATH_MS && DISCONNECT.test(text);
  };
}

/**
 * Drops, from this process's stdout and stderr, each write `faultFilter` recognises (a marked
 * fault or its disconnect aftermath); every other write goes through unchanged. Installed once by `vitest.config.mts`: the Workers pool
 * prints workerd's logs from the Vitest process itself, with its own log handler (a
 * `handleStructuredLogs` of ours would be overridden), one write per log entry.
 *
 * @example
 * quietExpectedFaults(); // in vitest.config.mts
 */
export function quietExpectedFaults(
  streams: { write: NodeJS.WriteStream["write"] }[] = [process.stdout, process.stderr],
  now: () => number = Date.now,
): void {
  // One filter for both streams: workerd's follow-ups may go to the other stream.
  const drop = faultFilter(now);
  for (const stream of streams) {
    if ((stream.write as { quiet?: boolean }).quiet) continue;
    const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
    const quiet = (chunk: unknown, ...rest: unknown[]) =>
      drop(String(chunk)) ? true : write(chunk, ...rest);
    stream.write = Object.assign(quiet, { quiet: true }) as typeof stream.write;
  }
}
