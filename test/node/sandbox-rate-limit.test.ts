/**
 * The sandbox's per-API-key rate limit (`SANDBOX_RATE_LIMIT`): N requests a second per key,
 * then 429 `exceptions.rateLimit.exceeded` with `extension.msBeforeNext` (the service's
 * envelope), other keys and admin paths untouched; unset means no limit.
 */
import { describe, expect, it } from "vitest";
import { createRateLimiter } from "../../demo/sandbox/rate-limit.ts";
import { sandboxClient, useSandbox } from "./sandbox-kit.ts";

const KEY = "sk_rate_test";
const ACCOUNT = "00000000-0000-4000-8000-0000000000aa";

describe("rate limiter (pure)", () => {
  it("allows `limit` per key per window, then answers the ms left; a new window starts fresh", () => {
    const limiter = createRateLimiter(3);
    expect([0, 10, 20].map((t) => limiter.take("a", 1_000 + t))).toEqual([null, null, null]);
    expect(limiter.take("a", 1_400)).toBe(600);
    // Refused requests are not counted, and another key has its own window.
    expect(limiter.take("a", 1_999)).toBe(1);
    expect(limiter.take("b", 1_999)).toBeNull();
    expect(limiter.take("a", 2_000)).toBeNull();
  });

  it("refuses a limit that is not a whole number ≥ 1", () => {
    for (const bad of [0, -1, 2.5, Number.NaN]) expect(() => createRateLimiter(bad)).toThrow();
  });
});

describe("sandbox with SANDBOX_RATE_LIMIT=5", () => {
  const { sb, api } = useSandbox(KEY, ACCOUNT, { rateLimit: 5 });

  it("answers the 6th request in a second 429 with extension.msBeforeNext, in the service's envelope", async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => api("GET", "/currencies/fiat")),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(3);
    for (const r of refused) {
      expect(r.json.code).toBe("exceptions.rateLimit.exceeded");
      expect(typeof r.json.message).toBe("string");
      // An exact JSON integer of milliseconds, at most one window.
      expect(r.text).toMatch(/"extension":\{"msBeforeNext":\d+\}/);
      expect(r.json.extension.msBeforeNext).toBeGreaterThan(0);
      expect(r.json.extension.msBeforeNext).toBeLessThanOrEqual(1_000);
    }
    // Admin paths are never limited, and another key counts on its own.
    const admin = await fetch(`${sb.url}/sandbox/requests`);
    expect(admin.status).toBe(200);
    const other = await sandboxClient(sb.url, "another-key")("GET", "/currencies/fiat");
    expect(other.status).toBe(401);
    // After msBeforeNext the key is served again.
    await new Promise((r) => setTimeout(r, refused[0]!.json.extension.msBeforeNext + 20));
    expect((await api("GET", "/currencies/fiat")).status).toBe(200);
  });
});

describe("sandbox without SANDBOX_RATE_LIMIT", () => {
  const { api } = useSandbox(KEY, ACCOUNT);

  it("never answers 429", async () => {
    const answers = await Promise.all(
      Array.from({ length: 60 }, () => api("GET", "/currencies/fiat")),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
  });
});
