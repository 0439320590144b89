/**
 * @module
 * The runtime's own address behind `wrangler dev`. `wrangler dev` puts a proxy workerd in front
 * of the workerd that runs the worker; under the realistic load that proxy, not the worker, is
 * what breaks (it keeps every closed webhook connection half-open, CLOSE-WAIT, and holds ≈ 7
 * sockets per SSE watcher, until its 20,000 file descriptors run out and it restarts). A
 * deployed worker has no such proxy, so the load talks to the runtime directly.
 */
import { execFileSync } from "node:child_process";
import { workerdPids } from "./rss.ts";

/** Loopback ports the processes `pids` listen on (from `ss`; Linux only). */
function listeningPorts(pids: string[]): number[] {
  let out: string;
  try {
    out = execFileSync("ss", ["-tlnpH"], { encoding: "utf8" });
  } catch {
    return [];
  }
  const ports: number[] = [];
  for (const line of out.split("\n")) {
    const pid = /pid=(\d+)/.exec(line)?.[1];
    const port = /127\.0\.0\.1:(\d+)/.exec(line)?.[1];
    if (pid && port && pids.includes(pid)) ports.push(Number(port));
  }
  return ports;
}

/**
 * The URL of the runtime that serves the worker of the `wrangler dev` on `workerPort`, past
 * its proxy: the listening socket of one of its workerd processes (other than the proxy's)
 * whose `GET /` answers as crypto-checkout. Falls back to the proxy's URL when not found.
 *
 * @example
 * const direct = await runtimeUrl(8787); // "http://127.0.0.1:41253"
 */
export async function runtimeUrl(workerPort: number): Promise<string> {
  const proxy = `http://127.0.0.1:${workerPort}`;
  for (const port of listeningPorts(workerdPids(workerPort))) {
    if (port === workerPort) continue;
    const url = `http://127.0.0.1:${port}`;
    const body = await fetch(`${url}/`, { signal: AbortSignal.timeout(2_000) })
      .then((r) => (r.ok ? r.json() : null))
      .catch(() => null);
    if ((body as { name?: string } | null)?.name === "crypto-checkout") return url;
  }
  return proxy;
}
