/**
 * The worker's router (`worker/edge/http/router.ts`): `TrieRouter` alone routes every request exactly
 * as hono's default preset did (`SmartRouter` over `RegExpRouter` and `TrieRouter`), because the
 * default settles on the trie for this route set.
 */
import { RegExpRouter } from "hono/router/reg-exp-router";
import { SmartRouter } from "hono/router/smart-router";
import { TrieRouter } from "hono/router/trie-router";
import { describe, expect, it } from "vitest";
import { app } from "../../worker/edge/app.ts";

/** The route set under hono's default preset's router, stored as `HonoBase` stores it. */
function defaultPreset() {
  const smart = new SmartRouter<unknown>({ routers: [new RegExpRouter(), new TrieRouter()] });
  for (const route of app.routes) smart.add(route.method, route.path, [route.handler, route]);
  return smart;
}

/** Paths to route: each route with its parameters filled, plus near misses around it. */
function samples(): [string, string][] {
  const out: [string, string][] = [];
  for (const route of app.routes) {
    const path = route.path.replace(/:\w+/g, "x1").replace(/\*$/, "a/b");
    for (const method of ["GET", "POST", "OPTIONS", "HEAD"]) {
      for (const variant of [path, `${path}/`, `${path}/extra`, path.replace(/\/[^/]*$/, "")]) {
        out.push([method, variant || "/"]);
      }
    }
  }
  out.push(["GET", "/v1/orders/"], ["GET", "/v1/orders.csv"], ["GET", "/nope"], ["GET", "/"]);
  return out;
}

describe("the worker's router", () => {
  it("matches every sample path exactly as the default preset, which routes by the trie", () => {
    const smart = defaultPreset();
    const checked = samples();
    expect(checked.length).toBeGreaterThan(100);
    for (const [method, path] of checked) {
      expect(app.router.match(method, path), `${method} ${path}`).toEqual(
        smart.match(method, path),
      );
    }
    expect(smart.activeRouter.name).toBe("TrieRouter");
    expect(app.router.name).toBe("TrieRouter");
  });
});
