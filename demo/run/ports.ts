/**
 * @module
 * Loopback port checks for the demo runner: is a port free, and which ports can a stack started
 * side by side with others (the e2e files, the bench) hold without racing them.
 *
 * Invariant: the demo binds 127.0.0.1 only, so that is the address checked.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Thrown when a port the demo needs is taken; the message names the port and its role. */
export class PortBusyError extends Error {
  readonly port: number;
  readonly role: string;
  constructor(role: string, port: number) {
    super(
      `Port ${port} (${role}) is already in use on 127.0.0.1. ` +
        `Stop whatever is listening there (is another \`npm run demo\` running? try \`lsof -i :${port}\`) and run it again.`,
    );
    this.name = "PortBusyError";
    this.port = port;
    this.role = role;
  }
}

function listen(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen({ port, host: "127.0.0.1", exclusive: true }, () => resolve(server));
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * Resolves when `port` can be bound on 127.0.0.1; rejects with `PortBusyError` otherwise.
 *
 * @example
 * await assertPortFree("worker", 8787);
 */
export async function assertPortFree(role: string, port: number): Promise<void> {
  try {
    await close(await listen(port));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") throw new PortBusyError(role, port);
    throw error;
  }
}

/**
 * Where stacks started side by side record the ports they hold: one file per port, created with
 * `wx` (atomic), holding the owner's pid. Shared by every process on the machine.
 */
const RESERVATIONS = join(tmpdir(), "crypto-checkout-ports");

/**
 * Picked ports come from below Linux's ephemeral range (32768–60999) and above the usual
 * fixed service ports. Why: a port merely found free and closed again can be taken before its
 * owner binds it (wrangler takes seconds to start), and every process that binds port 0 (each
 * wrangler and workerd binds several) draws from the ephemeral range. Below it, only another
 * picker could take the port, and the reservation file stops that.
 */
const PICK_FROM = 20_000;
const PICK_TO = 32_000;
/** A limit on the search, so a full machine is an error and not a hang. */
const MAX_TRIES = 2_000;

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Claims `port` for this process; false when another live process holds it. */
function claim(port: number): boolean {
  const file = join(RESERVATIONS, String(port));
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: "wx" });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = Number.parseInt(readFileSync(file, "utf8"), 10);
      // A reservation left by a process that died (killed test run) is stale: take it over.
      if (Number.isSafeInteger(owner) && processAlive(owner)) return false;
      rmSync(file, { force: true });
    }
  }
  return false;
}

/** Ports held by this process until `release()`. */
export interface ReservedPorts {
  ports: number[];
  /** Gives the ports back (idempotent); call once the processes that used them stopped. */
  release(): void;
}

/**
 * Reserves `count` distinct ports that are free now and that no other stack started through
 * this function (in any process) will pick until `release()`. The walk starts at a random port,
 * or at `options.startAt`.
 *
 * @example
 * const { ports: [sandbox, worker, shop], release } = await reservePorts(3);
 * // … start the children on those ports, and after they stopped:
 * release();
 */
export async function reservePorts(
  count: number,
  options: { startAt?: number } = {},
): Promise<ReservedPorts> {
  mkdirSync(RESERVATIONS, { recursive: true });
  const ports: number[] = [];
  const release = () => {
    for (const port of ports.splice(0)) {
      const file = join(RESERVATIONS, String(port));
      try {
        if (readFileSync(file, "utf8") === String(process.pid)) rmSync(file, { force: true });
      } catch {
        // Already gone: nothing to give back.
      }
    }
  };
  const span = PICK_TO - PICK_FROM;
  // A random start spreads stacks over the range; `startAt` makes the walk repeatable (tests).
  let next = options.startAt ?? PICK_FROM + Math.floor(Math.random() * span);
  if (!Number.isInteger(next) || next < PICK_FROM || next >= PICK_TO)
    throw new RangeError(`startAt must be a port in [${PICK_FROM}, ${PICK_TO})`);
  try {
    for (let tries = 0; ports.length < count; tries++) {
      if (tries >= MAX_TRIES) throw new Error(`no free port between ${PICK_FROM} and ${PICK_TO}`);
      const port = next;
      next = PICK_FROM + ((next - PICK_FROM + 1) % span);
      if (!claim(port)) continue;
      ports.push(port);
      try {
        await close(await listen(port));
      } catch {
        // Bound by a process that did not reserve it (a developer's server): skip it.
        ports.pop();
        rmSync(join(RESERVATIONS, String(port)), { force: true });
      }
    }
  } catch (error) {
    release();
    throw error;
  }
  return { ports: [...ports], release };
}
