/**
 * @module
 * `npm run demo`: builds the widget, writes the sandbox-only `.dev.vars`, starts sandbox +
 * worker + storefront, prints the URL to open, and stops everything (every port freed) on
 * SIGINT (Ctrl-C), SIGTERM, SIGHUP, or when its parent exits (`npm` forwards a SIGTERM to
 * `sh -c`, which dies without passing it on: `run/parent-watch.ts`).
 *
 * Flags: `--verbose` (or `DEMO_VERBOSE=1`) shows every line the children print; by default
 * only warnings and errors are shown. `--no-build` reuses the last widget build.
 * `--allow-origin <origin>` (repeatable, or `DEMO_ALLOWED_ORIGINS=a,b`) lets another page embed
 * the demo widget (`demo-origins.ts`). `--hosted`
 * runs the same shop against the sandbox as the public API only (no currency-lock extension):
 * the worker finds that out and shoppers pay on the sandbox's hosted payment page.
 */

import { watchParent } from "../demo/run/parent-watch.ts";
import { DEFAULT_PORTS, type DemoStack, startDemo } from "../demo/run.ts";
import { demoOrigins } from "./demo-origins.ts";
import { writeDevVars } from "./dev-vars.ts";

const verbose = process.argv.includes("--verbose") || process.env.DEMO_VERBOSE === "1";
const hosted = process.argv.includes("--hosted");
const controller = new AbortController();
let starting: Promise<DemoStack> | undefined;
let shuttingDown = false;

async function shutdown(signal: NodeJS.Signals, why: string = signal): Promise<void> {
  if (shuttingDown) return;
  shuttingDown = true;
  console.log(`\n${why}: stopping the demo…`);
  controller.abort();
  // Aborting makes a pending start clean up and reject; a finished start is stopped here.
  await starting?.then(
    (demo) => demo.stop(),
    () => undefined,
  );
  console.log("Stopped. Bye!");
  process.exit(signal === "SIGINT" ? 130 : 0);
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => void shutdown(signal));
}
watchParent(() => void shutdown("SIGHUP", "The parent process exited"));

console.log("Starting the crypto-checkout demo (sandbox, worker, storefront)…");
const devVars = writeDevVars();
if (!devVars.written) console.log(`Note: ${devVars.reason} The demo passes its own values.`);

try {
  starting = startDemo({
    ports: DEFAULT_PORTS,
    quiet: !verbose,
    buildWidget: !process.argv.includes("--no-build"),
    signal: controller.signal,
    extraOrigins: demoOrigins(process.argv.slice(2), process.env),
    hosted,
  });
  const demo = await starting;
  const { shopUrl, workerUrl, sandboxUrl } = demo.urls;
  console.log(
    [
      "",
      "  The demo is running. Open the storefront:",
      "",
      `      ${shopUrl}`,
      "",
      `  merchant view  ${shopUrl}/merchant`,
      `  worker         ${workerUrl}   (wrangler dev, against the sandbox)`,
      `  sandbox        ${sandboxUrl}   (simulated payment service, test money only${hosted ? "; public API only: shoppers pay on its hosted page" : ""})`,
      "",
      `  Press Ctrl-C to stop.${verbose ? "" : " Run with --verbose to see every log line."}`,
      "",
    ].join("\n"),
  );
} catch (error) {
  if (!shuttingDown) {
    console.error(`\nThe demo could not start: ${(error as Error).message}`);
    process.exit(1);
  }
}
