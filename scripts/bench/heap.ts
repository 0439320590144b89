/**
 * @module
 * The JS heap of the worker's isolate behind one `wrangler dev`, read over its inspector (the
 * Chrome DevTools protocol through wrangler's inspector proxy, `--inspector-port`): used heap
 * (`Runtime.getHeapUsage`), to tell a JS leak (heap grows with rounds) from memory the
 * runtime keeps outside the heap (RSS grows, heap flat). Null when no inspector answers.
 */
import { cmdline, wranglerPid } from "./rss.ts";

/** The `--inspector-port` of the `wrangler dev` listening on `port`; null when none. */
function inspectorPort(port: number): number | null {
  const pid = wranglerPid(port);
  if (!pid) return null;
  const args = cmdline(pid);
  const i = args.indexOf("--inspector-port");
  return i >= 0 ? Number(args[i + 1]) : null;
}

/** Sends `calls` in order over one CDP WebSocket; answers each call's result. */
async function cdp(url: string, calls: readonly string[]): Promise<unknown[]> {
  // wrangler's inspector proxy refuses an upgrade without an `Origin` (a browser page's guard);
  // Node's WebSocket (undici) takes extra headers in its second argument.
  const ws = new WebSocket(url, {
    headers: { origin: "http://127.0.0.1" },
  } as unknown as string[]);
  const pending = new Map<number, (result: unknown) => void>();
  ws.addEventListener("message", (e) => {
    const msg = JSON.parse(String(e.data)) as { id?: number; result?: unknown };
    if (msg.id !== undefined) pending.get(msg.id)?.(msg.result ?? null);
  });
  await new Promise((resolve, reject) => {
    ws.addEventListener("open", resolve, { once: true });
    ws.addEventListener("error", reject, { once: true });
  });
  try {
    const results: unknown[] = [];
    for (const [n, method] of calls.entries()) {
      const id = n + 1;
      results.push(
        await Promise.race([
          new Promise((resolve) => {
            pending.set(id, resolve);
            ws.send(JSON.stringify({ id, method }));
          }),
          new Promise((_, reject) =>
            setTimeout(() => reject(new Error(`${method}: no answer`)), 20_000),
          ),
        ]),
      );
    }
    return results;
  } finally {
    ws.close();
  }
}

/**
 * Used JS heap (MB) of the worker's isolate (its Durable Objects run in the same one), read through the
 * inspector of the `wrangler dev` listening on `port` (an upper bound of the live heap: workerd's
 * inspector gives no answer to `HeapProfiler.collectGarbage`); null when it cannot be read.
 *
 * @example
 * const heap = await workerHeapMb(8787); // 12.3
 */
export async function workerHeapMb(port: number): Promise<number | null> {
  const inspector = inspectorPort(port);
  if (inspector === null) return null;
  try {
    const targets = (await fetch(`http://127.0.0.1:${inspector}/json`, {
      signal: AbortSignal.timeout(5_000),
    }).then((r) => r.json())) as { webSocketDebuggerUrl?: string }[];
    const url = targets.find((t) => t.webSocketDebuggerUrl)?.webSocketDebuggerUrl;
    if (!url) return null;
    const [usage] = await cdp(url, ["Runtime.getHeapUsage"]);
    const used = (usage as { usedSize?: number } | null)?.usedSize;
    return typeof used === "number" ? used / 1024 / 1024 : null;
  } catch {
    return null;
  }
}
