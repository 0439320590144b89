/**
 * @module
 * The demo runner itself (`startDemo`, what `npm run demo` uses): it wires the three servers
 * together on the ports it is given, refuses a busy port by name before starting anything, and
 * `stop()` leaves nothing listening.
 */
import { createServer } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startDemo } from "../../demo/run.ts";
import { type Stack, startStack } from "./support/stack.ts";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

it("serves the storefront, the worker and the sandbox, wired to each other", async () => {
  const shop = await fetch(stack.urls.shopUrl);
  expect(shop.status).toBe(200);
  expect(await shop.text()).toContain("Cedar &amp; Bean");

  const health = await fetch(`${stack.urls.sandboxUrl}/sandbox/health`);
  expect(health.status).toBe(200);

  // The worker reaches the sandbox (UPSTREAM_BASE_URL) and lets the shop's origin in (CORS).
  const currencies = await fetch(`${stack.urls.workerUrl}/v1/currencies`, {
    headers: { origin: stack.urls.shopUrl },
  });
  expect(currencies.status).toBe(200);
  expect(currencies.headers.get("access-control-allow-origin")).toBe(stack.urls.shopUrl);
  const list = (await currencies.json()) as { data: { code: string }[] };
  expect(list.data.map((c) => c.code)).toContain("USDT_TRC20");

  // The merchant backend reads the ledger with its Bearer token: unknown order → worker's 404.
  const order = await stack.createOrder([{ productId: "enamel-mug", quantity: 1 }]);
  const view = await stack.merchantView(order.invoiceNumber);
  expect(view.ledger.status).toBe(404);
});

it("refuses a busy port with a message naming it, before starting anything", async () => {
  const blocker = createServer();
  await new Promise<void>((r) => blocker.listen(0, "127.0.0.1", () => r()));
  const port = (blocker.address() as { port: number }).port;
  try {
    const started = Date.now();
    await expect(
      startDemo({ ports: { sandbox: 0, worker: port, shop: 0 }, buildWidget: false }),
    ).rejects.toThrow(`Port ${port} (worker) is already in use`);
    expect(Date.now() - started).toBeLessThan(5000);
  } finally {
    blocker.close();
  }
});

it("stop() closes every port it opened", async () => {
  const demo = await startDemo({ ports: { sandbox: 0, worker: 0, shop: 0 }, buildWidget: false });
  const urls = [demo.urls.shopUrl, demo.urls.workerUrl, `${demo.urls.sandboxUrl}/sandbox/health`];
  for (const url of urls) expect((await fetch(url)).status).toBeLessThan(500);
  await demo.stop();
  for (const url of urls) {
    await expect(fetch(url, { signal: AbortSignal.timeout(2000) })).rejects.toThrow();
  }
});
