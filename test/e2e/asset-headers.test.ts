/**
 * @module
 * Issue 20, item 11, for what only the real stack serves: `/widget.js` and its chunks are static
 * assets (the worker never runs for them), so `X-Content-Type-Options: nosniff` comes from the
 * `_headers` file the widget build writes. Checked under `wrangler dev` beside a worker answer.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Stack, startStack } from "./support/stack.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

it("the widget bundle, a chunk, a locale and a worker answer all carry nosniff", async () => {
  for (const path of ["/widget.js", "/payment.js", "/i18n/de.js", "/v1/currencies/fiat"]) {
    const res = await fetch(`${stack.urls.workerUrl}${path}`);
    await res.body?.cancel();
    expect(res.status, path).toBe(200);
    expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
  }
  // The rules file itself is not served.
  const rules = await fetch(`${stack.urls.workerUrl}/_headers`);
  await rules.body?.cancel();
  expect(rules.status).toBe(404);
});
