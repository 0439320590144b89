/**
 * @module
 * Every way of stopping `npm run demo` frees every port: SIGTERM to `npm` itself (a process
 * manager, a container stop, a CI timeout; npm forwards it to `sh -c`, which dies without
 * passing it on, so the runner learns it from its parent exiting), and SIGINT / SIGHUP to the
 * runner. The same SIGTERM to `npm run sandbox` and `npm run dev` frees their port too. Uses the fixed demo ports (8787, 8788, 5173): run it inside a network namespace.
 * The widget is already built by the e2e global setup (`--no-build`).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { connect } from "node:net";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { waitFor } from "./support/wait.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const PORTS = [8787, 8788, 5173];

/** True when something accepts a TCP connection on the loopback port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

let started: ChildProcess | undefined;
afterEach(() => {
  // Belt and braces for a failing test: the process group this test started, and nothing else.
  if (started?.pid) {
    try {
      process.kill(-started.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  started = undefined;
});

/** Starts the demo in its own process group and resolves once it says it is running. */
async function startDemo(
  command: string,
  args: string[],
  ready = "The demo is running",
  ports = PORTS,
): Promise<ChildProcess> {
  for (const port of PORTS) expect(await listening(port), `port ${port} free before`).toBe(false);
  const child = spawn(command, args, {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, PATH: `${ROOT}node_modules/.bin:${process.env.PATH}` },
  });
  started = child;
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  await waitFor(() => output.includes(ready), `"${ready}"`, 120_000).catch((error: Error) => {
    throw new Error(`${error.message}\n${output}`);
  });
  for (const port of ports) await waitFor(() => listening(port), `port ${port} in use`, 30_000);
  return child;
}

async function expectPortsFreed(): Promise<void> {
  await waitFor(
    async () => (await Promise.all(PORTS.map(listening))).every((open) => !open),
    "every demo port to be freed",
    20_000,
  );
}

describe("stopping the demo frees every port", () => {
  it("SIGTERM to `npm run demo` (npm only, as a process manager sends it)", async () => {
    const npm = await startDemo("npm", ["run", "demo", "--", "--no-build"]);
    process.kill(npm.pid!, "SIGTERM");
    await expectPortsFreed();
  });

  it.each(["SIGINT", "SIGHUP"] as const)("%s to the runner", async (signal) => {
    const runner = await startDemo(process.execPath, ["scripts/demo.ts", "--no-build"]);
    process.kill(runner.pid!, signal);
    await expectPortsFreed();
    await waitFor(() => runner.exitCode !== null || runner.signalCode !== null, "runner exit");
  });
});

describe("stopping `npm run sandbox` or `npm run dev` frees its port", () => {
  it("SIGTERM to `npm run sandbox` (npm only)", async () => {
    const npm = await startDemo("npm", ["run", "sandbox"], "sandbox listening on", [8788]);
    process.kill(npm.pid!, "SIGTERM");
    await expectPortsFreed();
  });

  it("SIGTERM to `npm run dev` (npm only): wrangler and workerd stop too", async () => {
    const npm = await startDemo("npm", ["run", "dev"], "Ready on", [8787]);
    process.kill(npm.pid!, "SIGTERM");
    await expectPortsFreed();
  });
});
