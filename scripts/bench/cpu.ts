/**
 * @module
 * CPU time used so far by a set of processes, read from /proc (Linux only; NaN elsewhere), so
 * the bench can say what one webhook costs the runtime: CPU over a pass, less the same span of
 * the quiet baseline (reconciliation reads and heartbeats of the open watchers).
 */
import { statFields } from "./proc-stat.ts";

/** Clock ticks per second of /proc's utime and stime (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * User + system CPU time (ms) of processes `pids` so far; NaN when none can be read.
 *
 * @example
 * const before = cpuMs(["1234"]);
 * // … work …
 * const spent = cpuMs(["1234"]) - before;
 */
export function cpuMs(pids: readonly string[]): number {
  let ticks = 0;
  let read = 0;
  for (const pid of pids) {
    const fields = statFields(pid);
    if (!fields) continue; // exited between the listing and the read
    ticks += Number(fields[11]) + Number(fields[12]);
    read += 1;
  }
  return read ? (ticks * 1000) / TICKS_PER_SECOND : Number.NaN;
}
