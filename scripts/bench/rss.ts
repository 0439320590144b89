/**
 * @module
 * Resident memory of the workerd processes behind one `wrangler dev` (found by its `--port`
 * among this process's descendants), read from /proc (Linux only; NaN elsewhere).
 */
import { readdirSync, readFileSync } from "node:fs";
import { statFields } from "./proc-stat.ts";

function parentOf(pid: string): string | null {
  return statFields(pid)?.[1] ?? null;
}

/** The arguments of process `pid` (empty when it is gone). */
export const cmdline = (pid: string): string[] => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
  } catch {
    return [];
  }
};

function allPids(): string[] {
  try {
    return readdirSync("/proc").filter((p) => /^\d+$/.test(p));
  } catch {
    return [];
  }
}

/**
 * The pid of the `wrangler dev` listening on `port`; null when none.
 *
 * @example
 * const pid = wranglerPid(8787);
 */
export function wranglerPid(port: number): string | null {
  return (
    allPids().find((pid) => {
      const args = cmdline(pid);
      const i = args.indexOf("--port");
      return args.some((a) => a.endsWith("wrangler.js")) && i >= 0 && args[i + 1] === String(port);
    }) ?? null
  );
}

/**
 * The workerd processes started by the `wrangler dev` listening on `port` (a descendant of this
 * process): its proxy and the runtime that runs the worker. Empty when not found.
 *
 * @example
 * const pids = workerdPids(8787);
 */
export function workerdPids(port: number): string[] {
  const pids = allPids();
  const wrangler = wranglerPid(port);
  if (!wrangler) return [];
  const descends = (pid: string) => {
    for (let p: string | null = pid, hops = 0; p && p !== "0" && hops < 10; hops++) {
      if (p === wrangler) return true;
      p = parentOf(p);
    }
    return false;
  };
  return pids.filter((pid) => cmdline(pid)[0]?.endsWith("workerd") && descends(pid));
}

/**
 * Sum of VmRSS (MB) of the workerd processes started by the `wrangler dev` listening on
 * `port` (a descendant of this process); NaN when none is found.
 *
 * @example
 * const before = workerdRssMb(8787);
 */
export function workerdRssMb(port: number): number {
  return rssMb(workerdPids(port));
}

/**
 * Sum of VmRSS (MB) of processes `pids`; NaN when the list is empty.
 *
 * @example
 * const mb = rssMb(runtimePids(8787));
 */
export function rssMb(pids: readonly string[]): number {
  if (!pids.length) return Number.NaN;
  let kb = 0;
  for (const pid of pids) {
    try {
      const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      kb += m ? Number(m[1]) : 0;
    } catch {
      // exited between the listing and the read
    }
  }
  return kb / 1024;
}
