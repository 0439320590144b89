/**
 * @module
 * Serves the checkout page's demo wallet: `/assets/demo-wallet.js`, bundled from `page.ts` with
 * viem's `viem/accounts` by esbuild on the first request (in memory, a devDependency already
 * installed by `npm ci`: no build step, works offline), and the panel's balance relay to the
 * sandbox facilitator's admin (`/sandbox/x402/payers/:address/balance`).
 *
 * Invariant: demo only. Nothing here exists on a real shop, and the widget never carries a
 * wallet library: the wallet is the page's, as an extension's would be.
 */
import { fileURLToPath } from "node:url";
import type { Hono } from "hono";

const ENTRY = fileURLToPath(new URL("./page.ts", import.meta.url));
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

let bundle: Promise<string> | undefined;

/**
 * The bundle's text, built once per process (a failed build is tried again next time).
 *
 * @example
 * const js = await demoWalletBundle();
 */
export function demoWalletBundle(): Promise<string> {
  bundle ??= import("esbuild")
    .then((esbuild) =>
      esbuild.build({
        entryPoints: [ENTRY],
        bundle: true,
        format: "esm",
        platform: "browser",
        target: "es2022",
        minify: true,
        legalComments: "none",
        write: false,
        logLevel: "silent",
      }),
    )
    .then((result) => result.outputFiles[0]!.text);
  bundle.catch(() => {
    bundle = undefined;
  });
  return bundle;
}

/**
 * Registers the bundle and the balance relay on the storefront's app.
 *
 * @example
 * registerDemoWallet(app, config.sandboxUrl);
 */
export function registerDemoWallet(app: Hono, sandboxUrl: string): void {
  app.get("/assets/demo-wallet.js", async (c) => {
    try {
      const js = await demoWalletBundle();
      c.header("content-type", "text/javascript; charset=utf-8");
      c.header("cache-control", "no-cache");
      return c.body(js);
    } catch (error) {
      console.error(`demo wallet bundle failed: ${(error as Error).message}`);
      return c.text(`console.error("demo wallet bundle failed")`, 500);
    }
  });

  const relay = async (address: string, init?: RequestInit) => {
    if (!ADDRESS.test(address)) {
      return Response.json(
        { error: { code: "validation_failed", message: "address must be 0x + 40 hex" } },
        { status: 400 },
      );
    }
    try {
      const response = await fetch(`${sandboxUrl}/sandbox/x402/payers/${address}/balance`, {
        ...init,
        signal: AbortSignal.timeout(10_000),
      });
      return new Response(await response.text(), {
        status: response.status,
        headers: { "content-type": "application/json" },
      });
    } catch (error) {
      return Response.json(
        {
          error: {
            code: "unreachable",
            message: `sandbox unreachable: ${(error as Error).message}`,
          },
        },
        { status: 502 },
      );
    }
  };
  app.get("/api/demo-wallet/:address/balance", (c) => relay(c.req.param("address")));
  app.post("/api/demo-wallet/:address/balance", async (c) => {
    const body = (await c.req.json().catch(() => null)) as { balance?: unknown } | null;
    if (typeof body?.balance !== "string" || !/^\d{1,12}(\.\d{1,6})?$/.test(body.balance)) {
      return c.json(
        { error: { code: "validation_failed", message: "balance must be a USDC decimal string" } },
        400,
      );
    }
    return relay(c.req.param("address"), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ balance: body.balance }),
    });
  });
}
