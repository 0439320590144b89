/**
 * @module
 * `npm run dev`: writes the sandbox-only `.dev.vars` (`dev-vars.ts`), then runs `wrangler dev`
 * on 127.0.0.1:8787 as a supervised child (its own process group: `demo/run/child.ts`), and
 * stops it, workerd included, on SIGINT, SIGTERM, SIGHUP, or when its parent exits. The last
 * case is the one `npm run dev` used to miss: npm forwards a SIGTERM to `sh -c`, which dies
 * without passing it on, and a bare `wrangler dev` behind it kept port 8787
 * (`demo/run/parent-watch.ts`).
 *
 * Extra arguments go to `wrangler dev` (`npm run dev -- --var X:y`).
 */
import { fileURLToPath } from "node:url";
import { startChild } from "../demo/run/child.ts";
import { watchParent } from "../demo/run/parent-watch.ts";
import { writeDevVars } from "./dev-vars.ts";
import { writeOpenApiAsset } from "./openapi-asset.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const devVars = writeDevVars();
// `/v1/openapi.json` is a static asset the worker reads (the widget build writes it too).
writeOpenApiAsset();
console.log(devVars.written ? `Wrote ${devVars.path}` : devVars.reason);

const worker = startChild({
  name: "worker",
  args: [
    "node_modules/wrangler/bin/wrangler.js",
    "dev",
    "--port",
    "8787",
    "--ip",
    "127.0.0.1",
    ...process.argv.slice(2),
  ],
  cwd: ROOT,
  env: {},
  quiet: false,
  log: (line) => console.log(line),
});

let stopping = false;
async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  await worker.stop();
  process.exit(code);
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const)
  process.on(signal, () => void stop(signal === "SIGINT" ? 130 : 0));
watchParent(() => void stop(0));
// wrangler ending on its own (a config error, a crash) ends `npm run dev` with it.
void worker.exited.then((how) => stop(typeof how === "number" ? how : 1));
