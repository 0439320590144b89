/**
 * @module
 * What a storefront developer meets when embedding the widget, in Chromium:
 * - on a page whose origin is not in `ALLOWED_ORIGINS`, the widget says the site may not use
 *   the checkout (not "cannot reach the service"), and the console and the `checkout:error`
 *   event name `ALLOWED_ORIGINS` and the page's origin;
 * - on the shop's own page, `checkout:status` fires once for the opening state: the POST's
 *   answer and the event stream's first frame carry the same state (the widget compares the
 *   state itself, not only `seq`; `test/widget/shopper-ux.test.tsx` covers a repeat under a
 *   later `seq`, which this stack does not produce today).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { sleep } from "../support/wait.ts";
import { instrumentedContext } from "./support/browser.ts";
import { saveScreenshot } from "./support/screenshots.ts";
import { useStackAndBrowser } from "./support/setup.ts";
import { waitFor } from "./support/wait.ts";
import { waitForSnapshot, waitForWidgetText, widget } from "./support/widget.ts";

const e2e = useStackAndBrowser();

/** A page on another origin embedding the widget with `token`. */
let foreign: Server;
let foreignOrigin = "";
let token = "";
beforeAll(async () => {
  foreign = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(
      `<!doctype html><html lang="en"><title>Another shop</title>` +
        `<script src="${e2e.stack.urls.workerUrl}/widget.js" async></script>` +
        `<crypto-checkout token="${token}"></crypto-checkout></html>`,
    );
  });
  await new Promise<void>((r) => foreign.listen(0, "127.0.0.1", () => r()));
  foreignOrigin = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => foreign?.close(() => r())));

it("an origin missing from ALLOWED_ORIGINS: the widget says so, the console names the setting", async () => {
  const order = await e2e.stack.createOrder([{ productId: "pour-over-kit", quantity: 1 }]);
  const html = await (await fetch(e2e.stack.checkoutUrl(order.invoiceNumber))).text();
  token = /<crypto-checkout token="([^"]+)"/.exec(html)?.[1] ?? "";
  expect(token).not.toBe("");
  const context = await instrumentedContext(e2e.browser);
  const page = await context.newPage();
  const consoleLines: string[] = [];
  page.on("console", (m) => consoleLines.push(m.text()));
  await page.goto(foreignOrigin);
  await waitForWidgetText(page, /This site may not use this checkout/);
  expect(
    await widget(page)
      .getByText(/cannot reach/)
      .count(),
  ).toBe(0);
  const errors = await page.evaluate(
    () => (window as unknown as { __checkoutErrors: unknown[] }).__checkoutErrors,
  );
  expect(errors[0]).toMatchObject({
    code: "forbidden_origin",
    developerMessage: expect.stringContaining("ALLOWED_ORIGINS"),
  });
  expect((errors[0] as { developerMessage: string }).developerMessage).toContain(foreignOrigin);
  const line = consoleLines.find((l) => l.includes("[crypto-checkout] forbidden_origin"));
  expect(line).toContain("ALLOWED_ORIGINS");
  expect(line).toContain(foreignOrigin);
  await saveScreenshot(widget(page), "forbidden-origin");
  await context.close();
});

it("checkout:status fires once for the opening state (the stream's first frame repeats it)", async () => {
  const order = await e2e.stack.createOrder([{ productId: "pour-over-kit", quantity: 1 }]);
  const context = await instrumentedContext(e2e.browser);
  const page = await context.newPage();
  const streams: string[] = [];
  page.on("response", (r) => {
    if (r.url().endsWith("/events")) streams.push(r.url());
  });
  await page.goto(e2e.stack.checkoutUrl(order.invoiceNumber));
  await waitForSnapshot(page, {});
  await waitFor(() => streams.length > 0, "the event stream to open");
  // The stream's first frame is the current snapshot; give it time to arrive and be judged.
  await sleep(1500);
  const snapshots = await page.evaluate(
    () => (window as unknown as { __snapshots: { attempt: { status: string } }[] }).__snapshots,
  );
  expect(snapshots.map((s) => s.attempt.status)).toEqual(["created"]);
  await context.close();
});
