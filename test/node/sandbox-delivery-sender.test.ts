/**
 * The sandbox's webhook sender: a burst of deliveries shares a bounded pool of keep-alive
 * connections (never one per request), later deliveries reuse them, and `destroy()` closes them.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createDeliverySender, MAX_SOCKETS } from "../../demo/sandbox/delivery-sender.ts";

let server: Server | null = null;

/** A receiver that answers 200 after `delayMs` and counts the connections it accepted. */
async function receiver(delayMs: number) {
  const stats = { connections: 0, open: 0, bodies: [] as string[] };
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      stats.bodies.push(body);
      setTimeout(() => res.end('{"ok":true}'), delayMs);
    });
  });
  server.on("connection", (socket) => {
    stats.connections += 1;
    stats.open += 1;
    socket.on("close", () => (stats.open -= 1));
  });
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, stats };
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  server = null;
});

describe("delivery sender", () => {
  it("sends a burst over at most MAX_SOCKETS connections and reuses them afterwards", async () => {
    const rx = await receiver(20);
    const sender = createDeliverySender();
    const post = (i: number) =>
      sender.post(
        rx.url,
        { "content-type": "application/json" },
        `{"n":${i}}`,
        AbortSignal.timeout(10_000),
      );
    try {
      const first = await Promise.all(Array.from({ length: 3 * MAX_SOCKETS }, (_, i) => post(i)));
      expect(first.every((status) => status === 200)).toBe(true);
      expect(rx.stats.bodies).toHaveLength(3 * MAX_SOCKETS);
      expect(rx.stats.connections).toBeGreaterThan(0);
      expect(rx.stats.connections).toBeLessThanOrEqual(MAX_SOCKETS);
      const opened = rx.stats.connections;
      const second = await Promise.all(Array.from({ length: MAX_SOCKETS }, (_, i) => post(i)));
      expect(second.every((status) => status === 200)).toBe(true);
      expect(rx.stats.connections).toBe(opened);
    } finally {
      sender.destroy();
    }
    // destroy() closes the pooled sockets: the receiver sees every connection end.
    for (let i = 0; i < 50 && rx.stats.open > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(rx.stats.open).toBe(0);
  });

  it("answers the receiver's status, and rejects when the signal aborts", async () => {
    const rx = await receiver(500);
    const sender = createDeliverySender();
    try {
      await expect(sender.post(rx.url, {}, "{}", AbortSignal.timeout(50))).rejects.toThrow();
      expect(await sender.post(rx.url, {}, "{}", AbortSignal.timeout(5_000))).toBe(200);
    } finally {
      sender.destroy();
    }
  });
});
