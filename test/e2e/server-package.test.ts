/**
 * `@crypto-checkout/server` proved as a user would: `npm pack` the package, install the tarball
 * into a fresh app outside the repository (offline: it has no dependencies), and run a plain
 * JavaScript backend (`fixtures/server-consumer/main.mjs`) against a running demo stack, once
 * under Node 20 (the system's `/usr/bin/node`) and once under Node 22 (the `node`
 * devDependency): it mints a token and opens the checkout, then, once the order is paid,
 * verifies the worker's real signed `order.paid` delivery, refuses it tampered and replayed,
 * reads the order and the order list through the typed client. The CommonJS entry and the
 * type declarations are checked in the same app, and `npm publish --dry-run` must be clean.
 */
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_MERCHANT_SECRETS } from "../../scripts/dev-vars.ts";
import { type Stack, startStack } from "./support/stack.ts";

const execFileAsync = promisify(execFile);
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const PACKAGE = join(ROOT, "packages/server");
const FIXTURES = fileURLToPath(new URL("./fixtures/server-consumer", import.meta.url));
const NODE_22 = join(ROOT, "node_modules/.bin/node");
const NODE_20 = "/usr/bin/node";
const TSC = join(ROOT, "node_modules/typescript/bin/tsc");
/** npm and the build run on Node 22 (the build strips types). */
const PATH = `${join(ROOT, "node_modules/.bin")}:${process.env.PATH}`;

/** The demo worker signs notifications with its own `MERCHANT_WEBHOOK_SECRET`. */
const WEBHOOK_SECRET = DEMO_MERCHANT_SECRETS.merchantWebhookSecret;

interface Delivery {
  body: string;
  signature: string | undefined;
  eventId: string | undefined;
}

/** A merchant endpoint that keeps each delivery's raw bytes and headers. */
async function startReceiver(): Promise<{ server: Server; url: string; deliveries: Delivery[] }> {
  const deliveries: Delivery[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.method === "POST") {
        deliveries.push({
          body: Buffer.concat(chunks).toString("utf8"),
          signature: req.headers["x-checkout-signature"] as string | undefined,
          eventId: req.headers["x-checkout-event-id"] as string | undefined,
        });
        res.writeHead(200).end();
      } else {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(deliveries));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}`, deliveries };
}

let stack: Stack;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let app: string;

/**
 * Runs `node args…` in the app. Asynchronous on purpose: the receiver lives in this process,
 * and a blocking spawn would leave the script's request to it unanswered.
 */
async function run(node: string, args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout } = await execFileAsync(node, args, {
      cwd: app,
      encoding: "utf8",
      timeout: 60_000,
      env: { ...process.env, PATH, ...env },
    });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${node} ${args.join(" ")} failed:\n${stdout}\n${stderr}`);
  }
}

beforeAll(async () => {
  receiver = await startReceiver();
  const packed = mkdtempSync(join(tmpdir(), "cc-server-pack-"));
  // `npm pack` runs the package's prepack: the build (esbuild + tsc) from the sources.
  execFileSync("npm", ["pack", "--pack-destination", packed, "--silent"], {
    cwd: PACKAGE,
    env: { ...process.env, PATH },
    stdio: "pipe",
  });
  app = mkdtempSync(join(tmpdir(), "cc-server-app-"));
  writeFileSync(join(app, "package.json"), '{ "name": "shop-backend", "private": true }\n');
  const tarball = join(packed, "crypto-checkout-server-0.1.0.tgz");
  execFileSync(
    "npm",
    ["install", tarball, "--offline", "--no-audit", "--no-fund", "--ignore-scripts"],
    { cwd: app, env: { ...process.env, PATH }, stdio: "pipe" },
  );
  rmSync(packed, { recursive: true, force: true });
  cpSync(FIXTURES, app, { recursive: true });
  stack = await startStack({ merchantWebhookUrl: `${receiver.url}/notifications` });
});

afterAll(async () => {
  await stack?.stop();
  receiver?.server.close();
  if (app) rmSync(app, { recursive: true, force: true });
});

/** Waits until the receiver holds the order.paid delivery of `invoiceNumber`. */
async function paidDelivery(invoiceNumber: string) {
  for (let i = 0; i < 120; i++) {
    const found = receiver.deliveries.find(
      (d) =>
        d.body.includes(`"invoiceNumber":"${invoiceNumber}"`) && d.body.includes('"order.paid"'),
    );
    if (found) return found;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no order.paid notification for ${invoiceNumber}`);
}

describe.each([
  ["Node 20", NODE_20, /^v20\./, "n20"],
  ["Node 22", NODE_22, /^v22\./, "n22"],
])("the packed package in a fresh app under %s", (_name, node, version, label) => {
  const present = existsSync(node);

  it.skipIf(!present)(
    "mints, opens, verifies a real notification, reads and lists the order",
    async () => {
      const invoiceNumber = `pkg-${label}-${Date.now().toString(36)}`;
      const env = {
        WORKER_URL: stack.urls.workerUrl,
        CHECKOUT_SIGNING_SECRET: DEMO_MERCHANT_SECRETS.checkoutSigningSecret,
        MERCHANT_API_TOKEN: DEMO_MERCHANT_SECRETS.merchantApiToken,
        WEBHOOK_SECRET,
        RECEIVER_URL: receiver.url,
      };
      const opened = JSON.parse(await run(node, ["main.mjs", "open", invoiceNumber], env));
      expect(opened.node).toMatch(version);
      expect(opened.status).toBe(201);
      // The shopper pays: lock a currency, then the sandbox's "paid in full".
      const lock = await fetch(`${stack.urls.workerUrl}/v1/checkouts/${opened.id}/currency`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ cryptoCurrencyCode: "USDT_TRC20" }),
      });
      expect(lock.status).toBe(200);
      expect((await stack.simulate(opened.orderId, "paid")).status).toBe(200);
      const delivery = await paidDelivery(invoiceNumber);

      const checked = JSON.parse(await run(node, ["main.mjs", "check", invoiceNumber], env));
      expect(checked.node).toMatch(version);
      expect(checked.event).toEqual({
        id: delivery.eventId,
        type: "order.paid",
        invoiceNumber,
      });
      expect(checked.tampered).toBe("signature_mismatch");
      expect(checked.replayed).toBe("timestamp_out_of_tolerance");
      expect(checked.order).toEqual({ state: "paid", amountPaid: "25.00" });
      expect(checked.missing).toEqual({
        code: "not_found",
        message: expect.any(String),
        status: 404,
      });
      expect(checked.doctorOk).toBe(true);
      // The order list (GET /v1/orders through the client) holds the paid order.
      expect(checked.listed).toBe(true);
    },
  );

  it.skipIf(!present)("loads through CommonJS require and mints the same token shape", async () => {
    const out = JSON.parse(await run(node, ["require.cjs"]));
    expect(out.node).toMatch(version);
    expect(out).toMatchObject({
      header: { alg: "HS256", typ: "JWT" },
      sub: "cjs-1",
      amount: "1.00",
      exports: ["function", "function"],
    });
  });
});

it("type-checks a TypeScript user's ESM and CommonJS code against the published declarations", async () => {
  await run(NODE_22, [
    TSC,
    "--noEmit",
    "--strict",
    "--module",
    "nodenext",
    "--moduleResolution",
    "nodenext",
    "--target",
    "es2022",
    "--lib",
    "es2023,dom",
    "types.ts",
    "types.cts",
  ]);
});

it("npm publish --dry-run is clean", () => {
  // --offline: a dry run needs no registry (without it npm asks one, and waits where there is none).
  const result = spawnSync("npm", ["publish", "--dry-run", "--offline"], {
    cwd: PACKAGE,
    encoding: "utf8",
    env: { ...process.env, PATH },
  });
  expect(result.status).toBe(0);
  // npm's only remark without a login is that a real publish would need one.
  const warnings = result.stderr
    .split("\n")
    .filter((line) => line.startsWith("npm warn") && !line.includes("logged in"));
  expect(warnings).toEqual([]);
  expect(`${result.stdout}${result.stderr}`).toContain("+ @crypto-checkout/server@0.1.0");
});
