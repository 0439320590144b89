/**
 * Test projects (see README "Tests"):
 * - worker: the edge proxy inside workerd (@cloudflare/vitest-plugin), against a real sandbox
 *   started by test/worker/global-setup.ts on a free loopback port, one file at a time;
 * - unit:   the worker's pure modules (money, ids, facts, plans) inside workerd, files in
 *           parallel: no sandbox, nothing shared;
 * - node:   the sandbox simulator and Node-side helpers;
 * - widget: the Preact widget in happy-dom with @testing-library/preact;
 * - e2e:    real Chromium journeys against sandbox + `wrangler dev` + storefront;
 * - sim:    the deterministic simulation (test/sim/): seeded histories of shoppers, service
 *           events and faults against the worker in workerd and its own sandbox.
 */

import { mkdirSync } from "node:fs";
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { DEMO_X402_WALLET } from "./demo/sandbox/x402-wallets.ts";
import { writeOpenApiAsset } from "./scripts/openapi-asset.ts";
import { quietExpectedFaults } from "./test/expected-faults.ts";

// Deliberate faults (`test/expected-faults.ts`) stay quiet; anything else is printed.
quietExpectedFaults();

// wrangler.toml serves dist/public as static assets; it must exist even before a widget build,
// with the OpenAPI document the worker serves from it.
mkdirSync("dist/public", { recursive: true });
writeOpenApiAsset();

/**
 * The worker from source, as the tests run it: `test/support/worker-entry.ts` exports the
 * worker's default and its Durable Object classes (`worker/index.ts`) under the names
 * `wrangler.toml` binds, with the hooks only tests and the simulation call added in subclasses
 * (not in the deployed bundle). Not the minified `dist/worker/index.js` that wrangler.toml's
 * `main` names (wrangler builds that one; the e2e and node tests run it under `wrangler dev`).
 */
const WORKER_SOURCE = "./test/support/worker-entry.ts";

/**
 * The worker inside workerd, with every var the tests rely on: wrangler.toml's [vars] are
 * production-shaped (no merchant values), and these win over a developer's .dev.vars too.
 * Shared by the worker and sim projects (each gets its own sandbox from its global setup).
 */
function workerd(upstreamMaxRps = "200") {
  return cloudflareTest(({ inject }) => ({
    main: WORKER_SOURCE,
    wrangler: { configPath: "./wrangler.toml" },
    miniflare: {
      bindings: {
        DISPLAY_NAME: "Crypto Checkout Test",
        ACCOUNT_ID: "00000000-0000-4000-8000-000000000001",
        SANDBOX: "true",
        ALLOWED_ORIGINS: "http://127.0.0.1:5173,http://localhost:5173",
        ORDER_ID_PREFIX: "cc",
        DEBUG_LOG: "false",
        API_KEY: "test-api-key-never-shown",
        WEBHOOK_SIGNING_KEY: "test-webhook-signing-key-never-shown",
        CHECKOUT_SIGNING_SECRET: "test-checkout-signing-secret",
        MERCHANT_API_TOKEN: "test-merchant-api-token",
        MERCHANT_WEBHOOK_SECRET: "test-merchant-webhook-secret",
        // Nothing listens on port 1: the sandbox's own delivery attempts fail fast; tests
        // deliver webhooks themselves from the sandbox's delivery log.
        PUBLIC_BASE_URL: "http://127.0.0.1:1",
        UPSTREAM_BASE_URL: inject<string>("sandboxUrl"),
        MERCHANT_WEBHOOK_URL: `${inject<string>("sandboxUrl")}/sandbox/merchant-inbox`,
        // Tests open many checkouts at once; the budget's rules are tested on their own
        // (test/worker/upstream-budget.test.ts), and the simulation sets its own.
        UPSTREAM_MAX_RPS: upstreamMaxRps,
        // x402 on, paying the sandbox's registered demo wallet (Base Sepolia, the sandbox's
        // facilitator at <sandbox>/x402).
        X402_PAY_TO: DEMO_X402_WALLET,
      },
    },
  }));
}

/**
 * The simulation's upstream budget: low enough that side-by-side histories meet it, so its
 * invariant (calls per second ≤ budget, test/sim/budget.ts) is tested, not vacuous.
 */
const SIM_UPSTREAM_MAX_RPS = "30";

export default defineConfig({
  test: {
    projects: [
      {
        plugins: [workerd()],
        test: {
          name: "worker",
          include: ["test/worker/**/*.test.ts"],
          globalSetup: ["test/worker/global-setup.ts"],
          // Each file leaves no fault behind for the next (faults-spent.setup.ts).
          setupFiles: ["test/worker/faults-spent.setup.ts"],
          // Files share one sandbox; fault injection and request counts need them one at a time.
          fileParallelism: false,
          // A safety net, not a budget (figures come from `npm run bench`): on a busy 2-core
          // machine a test's first calls into workerd and the sandbox can take seconds.
          testTimeout: 30_000,
        },
      },
      {
        // Pure modules need no sandbox and share nothing, so their files run in parallel.
        plugins: [
          cloudflareTest({ main: WORKER_SOURCE, wrangler: { configPath: "./wrangler.toml" } }),
        ],
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts"],
          testTimeout: 30_000,
        },
      },
      {
        plugins: [workerd(SIM_UPSTREAM_MAX_RPS)],
        test: {
          name: "sim",
          include: ["test/sim/**/*.test.ts"],
          globalSetup: ["test/sim/global-setup.ts"],
          // One history at a time: fault injection in the sandbox is per path, not per order.
          fileParallelism: false,
          testTimeout: 900_000,
        },
      },
      {
        test: {
          name: "node",
          environment: "node",
          include: ["test/node/**/*.test.ts"],
          // Checks every answer and webhook of the file's sandboxes against the SDK's types.
          setupFiles: ["test/node/wire-contract-setup.ts"],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: "e2e",
          environment: "node",
          include: ["test/e2e/**/*.test.ts"],
          // Checks Chromium is installed and builds the widget once per run.
          globalSetup: ["test/e2e/global-setup.ts"],
          // Each file starts a real stack (sandbox + wrangler dev + storefront) and Chromium.
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        // Preact's automatic JSX runtime (vite 8 transforms with oxc).
        oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
        test: {
          name: "widget",
          environment: "happy-dom",
          // The widget inlines its stylesheet (`?inline`): tests check it reaches the shadow root.
          css: true,
          include: ["test/widget/**/*.test.{ts,tsx}"],
          testTimeout: 20_000,
        },
      },
    ],
  },
});
