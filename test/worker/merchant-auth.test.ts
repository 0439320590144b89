/**
 * The merchant API's Bearer authentication (`worker/edge/http/merchant-auth.ts`): what each
 * Authorization header gets, status, body and `WWW-Authenticate` challenge, the answers
 * `hono/bearer-auth` gave before the worker's own check replaced it.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { worker } from "./helpers.ts";

const TOKEN = env.MERCHANT_API_TOKEN as string;
const MISSING = "Send Authorization: Bearer <MERCHANT_API_TOKEN>.";
const MALFORMED =
  "Malformed Authorization header: send Bearer, one space, then the token as it is (no quotes or spaces).";
const WRONG = "The merchant API token is not valid.";

describe("merchant API authentication", () => {
  it.each([
    ["no Authorization header", undefined, 401, 'Bearer realm=""', MISSING],
    ["an empty header", "", 401, 'Bearer realm=""', MISSING],
    ["another scheme", `Basic ${TOKEN}`, 400, 'Bearer error="invalid_request"', MALFORMED],
    ["the scheme alone", "Bearer", 400, 'Bearer error="invalid_request"', MALFORMED],
    ["the scheme and a space", "Bearer ", 400, 'Bearer error="invalid_request"', MALFORMED],
    [
      "no space after the scheme",
      `Bearer\t${TOKEN}`,
      400,
      'Bearer error="invalid_request"',
      MALFORMED,
    ],
    ["a token with a space", "Bearer ab cd", 400, 'Bearer error="invalid_request"', MALFORMED],
    ["the token in quotes", `Bearer "${TOKEN}"`, 400, 'Bearer error="invalid_request"', MALFORMED],
    ["a wrong token", "Bearer nope", 401, 'Bearer error="invalid_token"', WRONG],
    ["the token plus a character", `Bearer ${TOKEN}x`, 401, 'Bearer error="invalid_token"', WRONG],
    [
      "a prefix of the token",
      `Bearer ${TOKEN.slice(0, -1)}`,
      401,
      'Bearer error="invalid_token"',
      WRONG,
    ],
  ])("refuses %s", async (_what, authorization, status, challenge, message) => {
    const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
    const res = await worker("/v1/doctor", { headers });
    expect(res.status).toBe(status);
    expect(res.headers.get("www-authenticate")).toBe(challenge);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(await res.json()).toEqual({ error: { code: "unauthorized", message } });
  });

  it.each([
    ["Bearer", `Bearer ${TOKEN}`],
    ["the scheme in lower case", `bearer ${TOKEN}`],
    ["the scheme in upper case", `BEARER ${TOKEN}`],
    ["two spaces after the scheme", `Bearer  ${TOKEN}`],
  ])("accepts %s", async (_what, authorization) => {
    const res = await worker("/v1/doctor", { headers: { authorization } });
    expect(res.status).toBe(200);
  });
});
