/**
 * @module
 * Loopback port checks for the demo runner: is a port free, and which free ports can a test use.
 *
 * Invariant: the demo binds 127.0.0.1 only, so that is the address checked.
 */
import { createServer, type Server } from "node:net";

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
 * Picks `count` distinct free ports (all held open until every one is picked).
 *
 * @example
 * const [sandbox, worker, shop] = await freePorts(3);
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) servers.push(await listen(0));
    return servers.map((server) => {
      const address = server.address();
      if (address === null || typeof address === "string") throw new Error("no port assigned");
      return address.port;
    });
  } finally {
    await Promise.all(servers.map(close));
  }
}
