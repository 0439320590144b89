/**
 * @module server
 * Binds a sandbox to a loopback port with @hono/node-server. Port 0 picks a free port; the
 * returned `url` is where clients point their base URL. `close()` stops the server, open
 * connections, the expiry sweep, webhook retries and held responses.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createSandbox, type Sandbox, type SandboxOptions } from "./app.ts";
import { CRYPTO_CURRENCIES, useExtraCurrency } from "./currencies.ts";
import { parseExtraCurrency } from "./extra-currency.ts";

/** Options of {@link startSandbox}: sandbox options plus where to listen. */
export type StartOptions = Partial<SandboxOptions> & {
  port?: number;
  host?: string;
  /** `SANDBOX_EXTRA_CURRENCY` spec (`extra-currency.ts`); unset or null: the built-in eleven only. */
  extraCurrency?: string | null;
};

/** A listening sandbox. */
export interface RunningSandbox {
  url: string;
  port: number;
  close(): Promise<void>;
  sandbox: Sandbox;
}

/**
 * Starts a sandbox on `host` (default 127.0.0.1) and `port` (default 0 = any free port).
 * Rejects with the listen error (e.g. EADDRINUSE) if the port cannot be bound.
 * @example
 * const sb = await startSandbox({ port: 0, webhookUrl: null });
 * await fetch(`${sb.url}/sandbox/health`);
 * await sb.close();
 */
export async function startSandbox(opts: StartOptions = {}): Promise<RunningSandbox> {
  const { port = 0, host = "127.0.0.1", extraCurrency = null, ...options } = opts;
  useExtraCurrency(null);
  const builtIn = CRYPTO_CURRENCIES.map((c) => c.code);
  useExtraCurrency(extraCurrency ? parseExtraCurrency(extraCurrency, builtIn) : null);
  const sandbox = createSandbox(options);
  let server: Server;
  try {
    server = await new Promise<Server>((resolve, reject) => {
      const s = serve({ fetch: sandbox.app.fetch, port, hostname: host }, () =>
        resolve(s as Server),
      ) as Server;
      s.once("error", reject);
    });
  } catch (err) {
    sandbox.dispose();
    throw err;
  }
  const bound = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${bound}`;
  let closing: Promise<void> | null = null;
  return {
    url,
    port: bound,
    sandbox,
    close() {
      closing ??= new Promise<void>((resolve) => {
        sandbox.dispose();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
