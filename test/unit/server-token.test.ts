/**
 * The server package's `mintCheckoutToken` against the worker's verifier: what one mints the
 * other accepts, and every claim the package refuses to mint the worker refuses to verify
 * (both read `packages/contract/src/claim-rules.ts`).
 */
import { describe, expect, it } from "vitest";
import { type MintClaims, mintCheckoutToken } from "../../packages/server/src/index.ts";
import { signCheckoutToken } from "../../packages/server/src/token/mint.ts";
import { verifyCheckoutToken } from "../../worker/edge/token/verify.ts";
import { ApiError } from "../../worker/lib/api-error.ts";

const SECRET = "unit-test-checkout-signing-secret";
/**
 * The package allows what a sandbox worker allows (loopback http redirects too): a minting
 * server cannot tell which deployment it mints for.
 */
const SANDBOX = { sandbox: true };
const base: MintClaims = { sub: "1001", amount: "49.90", currency: "USD" };
const segment = (token: string, i: number) =>
  JSON.parse(atob(token.split(".")[i]!.replace(/-/g, "+").replace(/_/g, "/")));

describe("mintCheckoutToken", () => {
  it("mints an HS256 JWT the worker verifies, with every claim kept and exp = iat + lifetime", async () => {
    const claims: MintClaims = {
      ...base,
      description: "2 mugs, 1 ünïcode tea",
      customerId: "cust-7",
      returnUrl: "https://shop.example/back",
      successUrl: "https://shop.example/thanks",
      failedUrl: "http://127.0.0.1:5173/checkout/1001",
    };
    const now = Date.now();
    const token = await mintCheckoutToken(claims, SECRET, { expiresInSeconds: 120, now });
    expect(segment(token, 0)).toEqual({ alg: "HS256", typ: "JWT" });
    const verified = await verifyCheckoutToken(token, SECRET, SANDBOX);
    expect(verified).toMatchObject(claims);
    expect(verified.exp).toBe(Math.floor(now / 1000) + 120);
  });

  it("mints top-up tokens the worker verifies as deposits", async () => {
    const token = await mintCheckoutToken(
      {
        sub: "topup-1",
        amount: "0",
        currency: "USD",
        mode: "deposit",
        cryptoCurrencyCode: "USDT_TRC20",
      },
      SECRET,
    );
    expect((await verifyCheckoutToken(token, SECRET, SANDBOX)).mode).toBe("deposit");
  });

  it("signs with the secret: the worker refuses it under another secret", async () => {
    const token = await mintCheckoutToken(base, SECRET);
    await expect(
      verifyCheckoutToken(token, "another-secret-entirely-0001", SANDBOX),
    ).rejects.toMatchObject({
      status: 401,
      code: "token_invalid",
    });
  });

  it("a token minted an hour ago with the default lifetime is expired for the worker", async () => {
    const token = await mintCheckoutToken(base, SECRET, { now: Date.now() - 3601_000 });
    await expect(verifyCheckoutToken(token, SECRET, SANDBOX)).rejects.toMatchObject({
      code: "token_expired",
    });
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ["a numeric amount", { amount: 49.9 }, /amount/],
    ["an amount with an exponent", { amount: "1e3" }, /amount/],
    ["a negative amount", { amount: "-1.00" }, /amount/],
    ["an invoice number with a space", { sub: "10 01" }, /sub/],
    ["an invoice number of 65 characters", { sub: "x".repeat(65) }, /sub/],
    ["the invoice number ..", { sub: ".." }, /sub/],
    [
      "a successUrl with a user name",
      { successUrl: "https://shop.example@evil.example/" },
      /successUrl/,
    ],
    ["a lowercase currency", { currency: "usd" }, /currency/],
    ["a description of 501 characters", { description: "d".repeat(501) }, /description/],
    ["an empty customerId", { customerId: "" }, /customerId/],
    ["a javascript: returnUrl", { returnUrl: "javascript:alert(1)" }, /returnUrl/],
    ["an http successUrl to a real host", { successUrl: "http://shop.example/ok" }, /successUrl/],
    ["a failedUrl that is not a URL", { failedUrl: "not a url" }, /failedUrl/],
    ["an unknown mode", { mode: "subscription" }, /mode/],
    ["a lowercase crypto code", { cryptoCurrencyCode: "btc" }, /cryptoCurrencyCode/],
  ])("refuses %s, as the worker does", async (_what, bad, message) => {
    const claims = { ...base, ...bad } as MintClaims;
    await expect(mintCheckoutToken(claims, SECRET)).rejects.toThrow(message);
    // The same claims signed without the package's checks: the worker refuses them too.
    const exp = Math.floor(Date.now() / 1000) + 600;
    const unchecked = await signCheckoutToken({ ...claims, exp }, SECRET);
    const refused = await verifyCheckoutToken(unchecked, SECRET, SANDBOX).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 400, code: "validation_failed" });
  });

  it("refuses an empty secret and a lifetime that is not 1 s to 24 h", async () => {
    await expect(mintCheckoutToken(base, "")).rejects.toThrow(/secret/);
    await expect(mintCheckoutToken(base, SECRET, { expiresInSeconds: 0 })).rejects.toThrow(
      /expiresInSeconds/,
    );
    await expect(mintCheckoutToken(base, SECRET, { expiresInSeconds: 1.5 })).rejects.toThrow(
      /expiresInSeconds/,
    );
    // The worker refuses tokens living longer than 24 h.
    await expect(mintCheckoutToken(base, SECRET, { expiresInSeconds: 86_401 })).rejects.toThrow(
      /expiresInSeconds/,
    );
    await expect(mintCheckoutToken(base, SECRET, { expiresInSeconds: 86_400 })).resolves.toMatch(
      /^ey/,
    );
  });
});
