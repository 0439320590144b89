/**
 * @module
 * Starts the bench's floor worker (`bench/floor/`) under `wrangler dev`, exactly as
 * `demo/run.ts` starts crypto-checkout (same wrangler, same flags, loopback, a fresh state
 * directory), and stops it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startChild } from "../../demo/run/child.ts";
import { reservePorts } from "../../demo/run/ports.ts";
import { sleep } from "./report.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** A running floor worker. */
export interface Floor {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** Which bench worker to start: its config, the path that answers once it is up, its vars. */
export interface BenchWorker {
  config: string;
  readyPath: string;
  vars?: Record<string, string>;
}

const FLOOR: BenchWorker = { config: "bench/floor/wrangler.toml", readyPath: "/json" };

/**
 * Starts the floor worker (or another bench worker) and resolves once it answers `readyPath`.
 *
 * @example
 * const floor = await startFloor();
 * await fetch(`${floor.url}/json`);
 * await floor.stop();
 */
export async function startFloor(worker: BenchWorker = FLOOR): Promise<Floor> {
  const reserved = await reservePorts(2);
  const [port, inspector] = reserved.ports;
  const state = mkdtempSync(join(tmpdir(), "crypto-checkout-floor-"));
  const child = startChild({
    name: "floor",
    args: [
      "node_modules/wrangler/bin/wrangler.js",
      "dev",
      "--config",
      worker.config,
      "--port",
      String(port),
      "--ip",
      "127.0.0.1",
      "--inspector-port",
      String(inspector),
      "--persist-to",
      join(state, "wrangler"),
      "--show-interactive-dev-session=false",
      ...Object.entries(worker.vars ?? {}).flatMap(([k, v]) => ["--var", `${k}:${v}`]),
    ],
    cwd: ROOT,
    env: { WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
    quiet: true,
    log: (line) => console.log(line),
  });
  const url = `http://127.0.0.1:${port!}`;
  const stop = async () => {
    await child.stop();
    reserved.release();
    rmSync(state, { recursive: true, force: true, maxRetries: 3 });
  };
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (!child.running()) break;
    const ok = await fetch(`${url}${worker.readyPath}`)
      .then((r) => r.arrayBuffer().then(() => r.ok))
      .catch(() => false);
    if (ok) return { url, port: port!, stop };
    await sleep(250);
  }
  await stop();
  throw new Error(`the bench worker ${worker.config} did not start:\n${child.recent().join("\n")}`);
}
