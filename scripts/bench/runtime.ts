/**
 * @module
 * The runtime's own address behind `wrangler dev`. `wrangler dev` puts a proxy workerd in front
 * of the workerd that runs the worker; under the realistic load that proxy, not the worker, is
 * what breaks (it keeps every closed webhook connection half-open, CLOSE-WAIT, and holds ≈ 7
 * sockets per SSE watcher, until its 20,000 file descriptors run out and it restarts). A
 * deployed worker has no such proxy, so the load talks to the runtime directly.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { cmdline, workerdPids } from "./rss.ts";

/**
 * The header that makes miniflare's entry worker hand a request straight to our worker, past
 * the static-assets router that `[assets]` puts in front of it (`wrangler dev` runs that router
 * in the same workerd; deployed, it is Cloudflare's own worker), with our worker's name
 * (`wrangler.toml`) as its value.
 *
 * @example
 * await fetch(`${direct}/webhooks/payment`, { method: "POST", headers: pastRouterHeaders() });
 */
export function pastRouterHeaders(): Record<string, string> {
  const toml = readFileSync(new URL("../../wrangler.toml", import.meta.url), "utf8");
  return { "MF-Route-Override": /^name\s*=\s*"([^"]+)"/m.exec(toml)?.[1] ?? "crypto-checkout" };
}

/**
 * The entry socket of workerd process `pid`: of the loopback ports it listens on (from `ss`;
 * Linux only), the one on its lowest descriptor. workerd binds its configured sockets first
 * (the entry, `--socket-addr=entry=…`), then the inspector and the debug port. Only the entry
 * may be probed: the debug port speaks Cap'n Proto, and an HTTP request there breaks the
 * runtime's RPC connection.
 */
function entryPort(pid: string): number | null {
  let out: string;
  try {
    out = execFileSync("ss", ["-tlnpH"], { encoding: "utf8" });
  } catch {
    return null;
  }
  let best: { fd: number; port: number } | null = null;
  for (const line of out.split("\n")) {
    const owner = new RegExp(`pid=${pid},fd=(\\d+)`).exec(line);
    const port = /127\.0\.0\.1:(\d+)/.exec(line)?.[1];
    if (!owner || !port) continue;
    const fd = Number(owner[1]);
    if (!best || fd < best.fd) best = { fd, port: Number(port) };
  }
  return best?.port ?? null;
}

/**
 * The URL of the runtime that serves the worker of the `wrangler dev` on `workerPort`, past
 * its proxy: the entry socket of its workerd started with an ephemeral entry
 * (`--socket-addr=entry=127.0.0.1:0`; the proxy's entry is `workerPort` itself), checked by
 * `GET /` answering as crypto-checkout (or by `isWorker`). Falls back to the proxy's URL when not found.
 *
 * @example
 * const direct = await runtimeUrl(8787); // "http://127.0.0.1:41253"
 */
export async function runtimeUrl(
  workerPort: number,
  isWorker: (baseUrl: string) => Promise<boolean> = answersAsCheckout,
): Promise<string> {
  const proxy = `http://127.0.0.1:${workerPort}`;
  for (const pid of runtimePids(workerPort)) {
    const port = entryPort(pid);
    if (port === null) continue;
    const url = `http://127.0.0.1:${port}`;
    if (await isWorker(url).catch(() => false)) return url;
  }
  return proxy;
}

/** Whether `GET /` at `baseUrl` answers as crypto-checkout. */
async function answersAsCheckout(baseUrl: string): Promise<boolean> {
  const body = await fetch(`${baseUrl}/`, { signal: AbortSignal.timeout(2_000) }).then((r) =>
    r.ok ? r.json() : null,
  );
  return (body as { name?: string } | null)?.name === "crypto-checkout";
}

/**
 * The workerd processes that run the worker of the `wrangler dev` on `workerPort` (not its
 * proxy): those started with an ephemeral entry socket. Empty when not found.
 *
 * @example
 * const [runtime] = runtimePids(8787);
 */
export function runtimePids(workerPort: number): string[] {
  return workerdPids(workerPort).filter((pid) =>
    cmdline(pid).includes("--socket-addr=entry=127.0.0.1:0"),
  );
}
