/**
 * @module
 * A loopback TCP proxy whose connection can be cut: a real network drop for the widget.
 * (Chromium's offline emulation keeps an already open EventSource stream alive, so on its own
 * it does not take the live connection down.)
 */
import { connect, createServer, type Socket } from "node:net";

/** A running proxy. */
export interface CuttableProxy {
  url: string;
  /** Drops every open connection and refuses new ones. */
  cut(): void;
  /** Accepts connections again. */
  restore(): void;
  close(): Promise<void>;
}

/**
 * Forwards 127.0.0.1:<free port> to `targetPort`.
 *
 * @example
 * const proxy = await startCuttableProxy(8787);
 * proxy.cut();
 */
export async function startCuttableProxy(targetPort: number): Promise<CuttableProxy> {
  const sockets = new Set<Socket>();
  let down = false;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
  };
  const server = createServer((client) => {
    track(client);
    if (down) {
      client.destroy();
      return;
    }
    const upstream = connect(targetPort, "127.0.0.1");
    track(upstream);
    client.once("close", () => upstream.destroy());
    upstream.once("close", () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    cut() {
      down = true;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      down = false;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
