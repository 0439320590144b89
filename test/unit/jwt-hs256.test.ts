/**
 * The worker's own HS256 verifier (`worker/lib/signing/jwt-hs256.ts`) gives every token the
 * verdict `hono/jwt`'s `verify(token, secret, { alg: "HS256", iat: false })` gave it, which the
 * worker used before: accepted (same payload), expired, or invalid. Bad, expired, wrong-alg,
 * not-yet-valid, malformed and tampered tokens, one by one.
 */
import { sign, verify } from "hono/jwt";
import { JwtTokenExpired } from "hono/utils/jwt/types";
import { describe, expect, it } from "vitest";
import { hmacSha256 } from "../../worker/lib/signing/hmac.ts";
import { decodeJwtPart, JwtRefused, verifyHs256 } from "../../worker/lib/signing/jwt-hs256.ts";

const SECRET = "checkout-signing-secret-for-tests";
const now = () => Math.floor(Date.now() / 1000);
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const raw = (text: string) => Buffer.from(text).toString("base64url");

/** A token with this header and payload, signed with `secret` (HS256 over the two parts). */
async function forge(header: unknown, payload: unknown, secret = SECRET): Promise<string> {
  const signed = `${b64(header)}.${b64(payload)}`;
  const mac = await hmacSha256(secret, signed);
  return `${signed}.${Buffer.from(mac).toString("base64url")}`;
}

type Verdict = { ok: unknown } | { refused: "expired" | "invalid" };

async function honoVerdict(token: string): Promise<Verdict> {
  try {
    return { ok: await verify(token, SECRET, { alg: "HS256", iat: false }) };
  } catch (error) {
    return { refused: error instanceof JwtTokenExpired ? "expired" : "invalid" };
  }
}

async function ownVerdict(token: string): Promise<Verdict> {
  try {
    return { ok: await verifyHs256(token, SECRET) };
  } catch (error) {
    if (!(error instanceof JwtRefused)) throw error;
    return { refused: error.reason };
  }
}

const HS = { alg: "HS256", typ: "JWT" };
const claims = () => ({ sub: "1001", amount: "10.00", currency: "USD", exp: now() + 600 });

const cases: [string, () => Promise<string>, "ok" | "expired" | "invalid"][] = [
  ["a good token (hono's sign)", () => sign(claims(), SECRET, "HS256"), "ok"],
  ["no typ", () => forge({ alg: "HS256" }, claims()), "ok"],
  ["typ jwt, lower case", () => forge({ alg: "HS256", typ: "jwt" }, claims()), "ok"],
  ["typ application/jwt", () => forge({ alg: "HS256", typ: "application/JWT" }, claims()), "ok"],
  ["typ JWS", () => forge({ alg: "HS256", typ: "JWS" }, claims()), "invalid"],
  ["a numeric typ", () => forge({ alg: "HS256", typ: 1 }, claims()), "invalid"],
  ["a crit header", () => forge({ ...HS, crit: ["exp"] }, claims()), "invalid"],
  ["another secret", () => sign(claims(), "another-secret", "HS256"), "invalid"],
  ["alg HS512", () => sign(claims(), SECRET, "HS512"), "invalid"],
  ["alg hs256, lower case", () => forge({ alg: "hs256" }, claims()), "invalid"],
  ["alg none, empty signature", async () => `${b64({ alg: "none" })}.${b64(claims())}.`, "invalid"],
  ["no alg", () => forge({ typ: "JWT" }, claims()), "invalid"],
  ["a header that is null", () => forge(null, claims()), "invalid"],
  ["a header that is an array", () => forge(["HS256"], claims()), "invalid"],
  ["expired a second ago", () => sign({ ...claims(), exp: now() - 1 }, SECRET, "HS256"), "expired"],
  ["exp exactly now", () => forge(HS, { ...claims(), exp: now() }), "expired"],
  [
    "expired and signed with another secret",
    () => forge(HS, { ...claims(), exp: now() - 60 }, "another-secret"),
    "expired",
  ],
  ["exp as a string", () => forge(HS, { ...claims(), exp: String(now() + 600) }), "expired"],
  ["exp null", () => forge(HS, { ...claims(), exp: null }), "expired"],
  ["no exp", () => forge(HS, { sub: "1001" }), "ok"],
  ["nbf in the future", () => forge(HS, { ...claims(), nbf: now() + 60 }), "invalid"],
  ["nbf in the past", () => forge(HS, { ...claims(), nbf: now() - 60 }), "ok"],
  ["nbf as a string", () => forge(HS, { ...claims(), nbf: "0" }), "invalid"],
  [
    "nbf in the future and expired",
    () => forge(HS, { ...claims(), nbf: now() + 60, exp: now() - 60 }),
    "invalid",
  ],
  ["iat in the future (not checked here)", () => forge(HS, { ...claims(), iat: now() + 60 }), "ok"],
  ["a payload that is null", () => forge(HS, null), "invalid"],
  ["a payload that is a number", () => forge(HS, 42), "ok"],
  ["a payload that is an array", () => forge(HS, [1, 2]), "ok"],
  ["non-ASCII claims", () => forge(HS, { ...claims(), description: "Café ☕ 東京" }), "ok"],
  ["two parts", async () => `${b64(HS)}.${b64(claims())}`, "invalid"],
  ["four parts", async () => `${await forge(HS, claims())}.x`, "invalid"],
  ["a header that is not JSON", async () => `${raw("{alg")}.${b64(claims())}.abc`, "invalid"],
  ["a header that is not base64", async () => `%%%.${b64(claims())}.abc`, "invalid"],
  [
    "a signature with a character outside base64url",
    async () => `${(await forge(HS, claims())).slice(0, -1)}+`,
    "invalid",
  ],
  ["a signature with padding", async () => `${await forge(HS, claims())}=`, "ok"],
  ["a signature cut short", async () => (await forge(HS, claims())).slice(0, -4), "invalid"],
  [
    "a payload changed after signing",
    async () => {
      const [h, , s] = (await forge(HS, claims())).split(".");
      return `${h}.${b64({ ...claims(), amount: "0.01" })}.${s}`;
    },
    "invalid",
  ],
];

describe("verifyHs256 gives hono/jwt's verdict", () => {
  it.each(cases)("%s → %s", async (_what, make, expected) => {
    const token = await make();
    const own = await ownVerdict(token);
    expect(own).toEqual(await honoVerdict(token));
    if (expected === "ok") expect(own).toHaveProperty("ok");
    else expect(own).toEqual({ refused: expected });
  });

  it("returns the payload as signed", async () => {
    const payload = { ...claims(), customerId: "c-1" };
    await expect(verifyHs256(await sign(payload, SECRET, "HS256"), SECRET)).resolves.toEqual(
      payload,
    );
  });

  it("decodeJwtPart reads base64url JSON and throws on anything else", () => {
    expect(decodeJwtPart(b64({ alg: "HS256" }))).toEqual({ alg: "HS256" });
    expect(() => decodeJwtPart("%%%")).toThrow();
    expect(() => decodeJwtPart(raw("not json"))).toThrow();
  });
});
