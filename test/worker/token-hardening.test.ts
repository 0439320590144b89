/**
 * Issue 20, items 4, 8, 9 and 10: what a checkout token may carry. `returnUrl` follows the rule
 * of `successUrl`/`failedUrl` (https, loopback http only against a sandbox, no user name or
 * password); redirect URLs reach the service normalised; a token lives at most 24 h; `.` and
 * `..` are no invoice numbers. Every refusal happens before anything reaches the service.
 */
import { env } from "cloudflare:workers";
import { sign } from "hono/jwt";
import { describe, expect, it } from "vitest";
import type { CheckoutSnapshot } from "../../packages/contract/src/http-api.ts";
import { MAX_TOKEN_LIFETIME_S, verifyCheckoutToken } from "../../worker/edge/token/verify.ts";
import { ApiError } from "../../worker/lib/api-error.ts";
import {
  merchant,
  postJson,
  SANDBOX_URL,
  simulate,
  token,
  uniqueIp,
  uniqueSub,
  upstreamInvoice,
} from "./helpers.ts";

const secret = env.CHECKOUT_SIGNING_SECRET as string;
const nowS = () => Math.floor(Date.now() / 1000);
const HOUR = 3600;

async function post(t: string) {
  const res = await postJson("/v1/checkouts", { token: t }, { "cf-connecting-ip": uniqueIp() });
  return {
    status: res.status,
    body: (await res.json()) as {
      data: CheckoutSnapshot;
      error: { code: string; message: string };
    },
  };
}

const claims = (sub: string, more: Record<string, unknown> = {}) => ({
  sub,
  amount: "10.00",
  currency: "USD",
  exp: nowS() + 600,
  ...more,
});

describe("token refusals (issue 20)", () => {
  it.each([
    [
      "returnUrl over plain http to a real host",
      { returnUrl: "http://shop.example/back" },
      400,
      "validation_failed",
      "returnUrl",
    ],
    [
      "returnUrl with a user name on a loopback-looking host",
      { returnUrl: "http://localhost:1@evil.example/" },
      400,
      "validation_failed",
      "returnUrl",
    ],
    [
      "returnUrl javascript:",
      { returnUrl: "javascript:alert(1)" },
      400,
      "validation_failed",
      "returnUrl",
    ],
    [
      "successUrl with userinfo",
      { successUrl: "https://shop.example@evil.example/" },
      400,
      "validation_failed",
      "successUrl",
    ],
    [
      "failedUrl with a password",
      { failedUrl: "https://a:b@shop.example/" },
      400,
      "validation_failed",
      "failedUrl",
    ],
    ["a URL that is no URL", { successUrl: "not a url" }, 400, "validation_failed", "successUrl"],
    ["exp 25 h ahead", { exp: nowS() + 25 * HOUR }, 401, "token_lifetime_exceeded", "24 h"],
    ["exp in the year 5138", { exp: 99_999_999_999 }, 401, "token_lifetime_exceeded", "24 h"],
    [
      "exp 23 h ahead but 25 h after iat",
      { iat: nowS() - 2 * HOUR, exp: nowS() + 23 * HOUR },
      401,
      "token_lifetime_exceeded",
      "iat",
    ],
  ])("refuses %s", async (_what, more, status, code, named) => {
    const sub = uniqueSub("harden");
    const { status: got, body } = await post(await sign(claims(sub, more), secret, "HS256"));
    expect(got).toBe(status);
    expect(body.error.code).toBe(code);
    expect(body.error.message).toContain(named);
    expect((await upstreamInvoice(`cc-${sub}`)).status).toBe(404);
  });

  it.each([".", ".."])(
    "refuses the invoice number %j (400), and the merchant route answers 404 for it",
    async (sub) => {
      const { status, body } = await post(await sign(claims(sub), secret, "HS256"));
      expect(status).toBe(400);
      expect(body.error.code).toBe("validation_failed");
      expect(body.error.message).toContain("sub");
      expect((await upstreamInvoice(`cc-${sub}`)).status).toBe(404);
      const encoded = sub.replace(/\./g, "%2E");
      const ledger = await merchant(`/v1/orders/${encoded}`);
      expect(ledger.status).toBe(404);
      expect(((await ledger.json()) as { error: { code: string } }).error.code).toBe("not_found");
    },
  );

  it("loopback http redirects only against a sandbox: a production deployment refuses them", async () => {
    const t = await sign(
      claims("1001", { returnUrl: "http://127.0.0.1:5173/back" }),
      secret,
      "HS256",
    );
    await expect(verifyCheckoutToken(t, secret, { sandbox: true })).resolves.toMatchObject({
      returnUrl: "http://127.0.0.1:5173/back",
    });
    const refused = await verifyCheckoutToken(t, secret, { sandbox: false }).catch((e) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 400, code: "validation_failed" });
  });
});

describe("tokens accepted (issue 20)", () => {
  it("a token living the full 24 h opens a checkout", async () => {
    const sub = uniqueSub("day");
    const now = nowS();
    const { status } = await post(
      await sign(claims(sub, { iat: now, exp: now + MAX_TOKEN_LIFETIME_S }), secret, "HS256"),
    );
    expect(status).toBe(201);
  });

  it("redirect URLs reach the service normalised (upper-case scheme, a space): 201, not 502", async () => {
    const sub = uniqueSub("norm");
    const { status, body } = await post(
      await token({
        sub,
        returnUrl: "HTTPS://Shop.Example/back",
        successUrl: "HTTPS://SHOP.example/thank you?x=1",
      }),
    );
    expect(status, JSON.stringify(body)).toBe(201);
    expect(body.data.returnUrl).toBe("https://shop.example/back");
    const orderId = body.data.attempt.orderId;
    await simulate(orderId, "paid");
    const id = (await upstreamInvoice(orderId)).body.data.id as string;
    const page = await fetch(`${SANDBOX_URL}/pay/${id}/status`);
    expect(((await page.json()) as { returnTo: string | null }).returnTo).toBe(
      "https://shop.example/thank%20you?x=1",
    );
  });
});
