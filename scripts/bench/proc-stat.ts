/**
 * @module
 * One process's `/proc/<pid>/stat` fields (Linux only), the way the bench reads a parent pid
 * and CPU times.
 */
import { readFileSync } from "node:fs";

/**
 * The fields after the parenthesised command name (which may contain spaces and parentheses):
 * index 0 is the state, 1 the parent pid, 11 utime, 12 stime. Null when the process is gone or
 * /proc cannot be read.
 *
 * @example
 * statFields("1234")?.[1]; // "1200", its parent
 */
export function statFields(pid: string): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}
