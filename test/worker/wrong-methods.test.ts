/**
 * A wrong method on a path the worker serves is 405 `method_not_allowed` with `Allow` naming
 * the methods it takes (one mechanism, the app's not-found answer: `worker/edge/app.ts`); a
 * path it does not serve stays 404. Authentication still comes first on merchant paths.
 */
import { describe, expect, it } from "vitest";
import { merchant, STOREFRONT, worker } from "./helpers.ts";

describe("a wrong method on a served path (405)", () => {
  it.each<[string, string, string]>([
    ["DELETE", "/v1/orders", "GET"],
    ["PUT", "/v1/orders/1001", "GET"],
    ["GET", "/v1/orders/1001/refund", "POST"],
    ["DELETE", "/v1/notifications/test", "POST"],
    ["POST", "/v1/doctor", "GET"],
  ])("merchant: %s %s is 405, Allow: %s", async (method, path, allow) => {
    const res = await merchant(path, { method });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe(allow);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({
      error: {
        code: "method_not_allowed",
        message: `This route takes only ${allow}.`,
      },
    });
  });

  it.each<[string, string, string]>([
    ["DELETE", "/v1/currencies", "GET"],
    ["POST", "/v1/currencies/fiat", "GET"],
    ["PUT", "/v1/checkouts", "POST"],
  ])("storefront: %s %s is 405, Allow: %s", async (method, path, allow) => {
    const res = await worker(path, { method, headers: { origin: STOREFRONT } });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe(allow);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe(
      "method_not_allowed",
    );
  });

  it("a merchant path without Bearer is still 401 (authentication first)", async () => {
    const res = await worker("/v1/orders", { method: "DELETE" });
    expect(res.status).toBe(401);
    await res.body?.cancel();
  });

  it("a path no route serves stays 404 whatever the method", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await worker("/v1/nope", { method });
      expect(res.status).toBe(404);
      expect(res.headers.get("allow")).toBeNull();
      await res.body?.cancel();
    }
  });
});
