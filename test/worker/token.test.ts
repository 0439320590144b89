import { env } from "cloudflare:workers";
import { sign } from "hono/jwt";
import { describe, expect, it } from "vitest";
import { postJson, token, uniqueIp, uniqueSub, upstreamInvoice } from "./helpers.ts";

const secret = env.CHECKOUT_SIGNING_SECRET as string;
const b64 = (o: unknown) =>
  btoa(JSON.stringify(o)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");

async function post(t: string) {
  const res = await postJson("/v1/checkouts", { token: t }, { "cf-connecting-ip": uniqueIp() });
  return {
    status: res.status,
    body: (await res.json()) as { error: { code: string; message: string } },
  };
}

describe("checkout token rejections (nothing reaches the service)", () => {
  const exp = () => Math.floor(Date.now() / 1000) + 600;

  it.each([
    [
      "a bad signature",
      async (sub: string) =>
        sign(
          { sub, amount: "10.00", currency: "USD", exp: exp() },
          "another-secret-entirely",
          "HS256",
        ),
      401,
      "token_invalid",
    ],
    [
      "alg none",
      async (sub: string) =>
        `${b64({ alg: "none", typ: "JWT" })}.${b64({ sub, amount: "10.00", currency: "USD", exp: exp() })}.`,
      401,
      "token_invalid",
    ],
    [
      "alg HS512",
      async (sub: string) =>
        sign({ sub, amount: "10.00", currency: "USD", exp: exp() }, secret, "HS512"),
      401,
      "token_invalid",
    ],
    [
      "an expired token",
      async (sub: string) =>
        sign(
          { sub, amount: "10.00", currency: "USD", exp: Math.floor(Date.now() / 1000) - 5 },
          secret,
          "HS256",
        ),
      401,
      "token_expired",
    ],
    [
      "no exp",
      async (sub: string) => sign({ sub, amount: "10.00", currency: "USD" }, secret, "HS256"),
      400,
      "validation_failed",
    ],
    [
      // Not "expired": reloading mints the same malformed token (a new user's finding).
      "exp as a string",
      async (sub: string) =>
        sign(
          { sub, amount: "10.00", currency: "USD", exp: String(exp()) as unknown as number },
          secret,
          "HS256",
        ),
      401,
      "token_invalid",
    ],
    [
      "a numeric amount",
      async (sub: string) =>
        sign({ sub, amount: 10, currency: "USD", exp: exp() }, secret, "HS256"),
      400,
      "validation_failed",
    ],
    [
      "a bad invoice number",
      // The bad sub is this case's sub plus a space: the check below looks for its orderId.
      async (sub: string) =>
        sign({ sub: `${sub} x`, amount: "10.00", currency: "USD", exp: exp() }, secret, "HS256"),
      400,
      "validation_failed",
    ],
    [
      "too many decimals for USD",
      async (sub: string) => token({ sub, amount: "10.001" }),
      400,
      "amount_invalid_decimals",
    ],
    [
      "decimals on JPY (0 dp)",
      async (sub: string) => token({ sub, amount: "1000.5", currency: "JPY" }),
      400,
      "amount_invalid_decimals",
    ],
    [
      "below the minimum invoice amount",
      async (sub: string) => token({ sub, amount: "0.01" }),
      400,
      "amount_below_minimum",
    ],
    [
      "an unknown fiat",
      async (sub: string) => token({ sub, currency: "XYZ" }),
      400,
      "unknown_currency",
    ],
    ["not a JWT", async () => "garbage", 401, "token_invalid"],
  ])("rejects %s", async (what, make, status, code) => {
    const sub = uniqueSub("tok");
    const { status: got, body } = await post(await make(sub));
    expect(got).toBe(status);
    expect(body.error.code).toBe(code);
    expect(body.error.message.length).toBeGreaterThan(10);
    if (what === "exp as a string")
      expect(body.error.message).toContain("exp claim must be a number");
    // No upstream invoice exists for this order (under either spelling of its orderId).
    expect((await upstreamInvoice(`cc-${sub}`)).status).toBe(404);
    expect((await upstreamInvoice(`cc-${sub} x`)).status).toBe(404);
  });

  it.each([
    [
      "a JSON number",
      25.5,
      'amount must be a decimal string such as "49.90" (a JSON string, not a number)',
    ],
    // A string is not told it is a number (it was, before).
    ["a comma decimal", "25,50", 'amount must be a decimal string such as "49.90"'],
  ])("an amount given as %s is told it must be a decimal string", async (_what, amount, words) => {
    const sub = uniqueSub("tok");
    const { status, body } = await post(
      await sign({ sub, amount, currency: "USD", exp: exp() }, secret, "HS256"),
    );
    expect(status).toBe(400);
    expect(body.error).toEqual({
      code: "validation_failed",
      message: `Checkout token claim amount: ${words}`,
    });
  });

  it("rejects a body without a token with 400 validation_failed saying what is wrong", async () => {
    const answer = async (body: unknown) => {
      const res = await postJson("/v1/checkouts", body, { "cf-connecting-ip": uniqueIp() });
      const { error } = (await res.json()) as { error: { code: string; message: string } };
      return [res.status, error.code, error.message];
    };
    expect(await answer({ nope: 1 })).toEqual([400, "validation_failed", "token: is required"]);
    expect(await answer({ token: 5 })).toEqual([
      400,
      "validation_failed",
      "token: must be a string",
    ]);
    expect(await answer([])).toEqual([400, "validation_failed", "body: must be a JSON object"]);
  });

  it("rejects a non-JSON body with 400 bad_request", async () => {
    const res = await postJson("/v1/checkouts", undefined, { "cf-connecting-ip": uniqueIp() });
    expect(res.status).toBe(400);
  });
});
