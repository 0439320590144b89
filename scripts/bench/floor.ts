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
import { freePorts } from "../../demo/run/ports.ts";
import { sleep } from "./report.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** A running floor worker. */
export interface Floor {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * Starts the floor worker and resolves once it answers `GET /json`.
 *
 * @example
 * const floor = await startFloor();
 * await fetch(`${floor.url}/json`);
 * await floor.stop();
 */
export async function startFloor(): Promise<Floor> {
  const [port, inspector] = await freePorts(2);
  const state = mkdtempSync(join(tmpdir(), "crypto-checkout-floor-"));
  const child = startChild({
    name: "floor",
    args: [
      "node_modules/wrangler/bin/wrangler.js",
      "dev",
      "--config",
      "bench/floor/wrangler.toml",
      "--port",
      String(port),
      "--ip",
      "127.0.0.1",
      "--inspector-port",
      String(inspector),
      "--persist-to",
      join(state, "wrangler"),
      "--show-interactive-dev-session=false",
    ],
    cwd: ROOT,
    env: { WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
    quiet: true,
    log: (line) => console.log(line),
  });
  const url = `http://127.0.0.1:${port!}`;
  const stop = async () => {
    await child.stop();
    rmSync(state, { recursive: true, force: true, maxRetries: 3 });
  };
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (!child.running()) break;
    const ok = await fetch(`${url}/json`)
      .then((r) => r.arrayBuffer().then(() => r.ok))
      .catch(() => false);
    if (ok) return { url, port: port!, stop };
    await sleep(250);
  }
  await stop();
  throw new Error(`the floor worker did not start:\n${child.recent().join("\n")}`);
}
