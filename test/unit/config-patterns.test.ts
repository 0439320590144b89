/**
 * The configuration's plain patterns accept exactly what the zod schemas they replaced accept
 * (`worker/core/config/config.ts`): `UUID` is `z.uuid()`, for `ACCOUNT_ID`; `urlString(m)` is
 * `z.url(m)` (the callback URLs) and `urlString(m, true)` is `z.url({ protocol: /^https?$/ })`
 * (`UPSTREAM_BASE_URL`), in what they accept and in the value they give.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { regexes } from "zod/v4/core";
import { parseConfig, UUID, urlString } from "../../worker/core/config/config.ts";
import type { CoreEnv } from "../../worker/core/config/core-env.ts";
import { check, type Schema } from "../../worker/lib/schema.ts";

const zodUuid = z.uuid();

describe("ACCOUNT_ID's UUID pattern", () => {
  it("is zod's own z.uuid() pattern", () => {
    expect(UUID.source).toBe(regexes.uuid().source);
  });

  it.each([
    "00000000-0000-4000-8000-000000000001",
    "6F9619FF-8B86-D011-B42D-00C04FC964FF",
    "00000000-0000-0000-0000-000000000000",
    "ffffffff-ffff-ffff-ffff-ffffffffffff",
    "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF",
    "00000000-0000-9000-8000-000000000001",
    "00000000-0000-4000-c000-000000000001",
    "00000000-0000-4000-8000-00000000001",
    "{00000000-0000-4000-8000-000000000001}",
    "00000000000040008000000000000001",
    " 00000000-0000-4000-8000-000000000001",
    "not-a-uuid",
    "",
  ])("%j: accepted exactly when z.uuid() accepts it", (value) => {
    expect(UUID.test(value)).toBe(zodUuid.safeParse(value).success);
  });

  it("agrees with z.uuid() on generated UUIDs and near-UUIDs", () => {
    const mangled = fc
      .tuple(fc.uuid(), fc.nat(), fc.constantFrom("", "-", "g", "0", "F", " ", "{"))
      .map(
        ([s, at, piece]) => s.slice(0, at % (s.length + 1)) + piece + s.slice((at % s.length) + 1),
      );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uuid(),
          fc.uuid().map((s) => s.toUpperCase()),
          mangled,
          fc.string(),
        ),
        (value) => {
          expect(UUID.test(value)).toBe(zodUuid.safeParse(value).success);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("a refused ACCOUNT_ID names the rule; an absent one is required", () => {
    const env = (ACCOUNT_ID?: string) => ({ ACCOUNT_ID }) as unknown as CoreEnv;
    const bad = parseConfig(env("not-a-uuid"));
    expect(bad.ok ? [] : bad.problems).toContain(
      "ACCOUNT_ID must be the account's UUID from the admin account list",
    );
    const absent = parseConfig(env());
    expect(absent.ok ? [] : absent.problems).toContain("ACCOUNT_ID is required");
  });
});

describe("URL strings", () => {
  const pairs = [
    ["z.url(m)", z.url("m"), urlString("m")],
    [
      "z.url({ protocol: http(s) })",
      z.url({ protocol: /^https?$/, error: "m" }),
      urlString("m", true),
    ],
  ] as const;
  const verdict = (schema: z.ZodMiniType | Schema<string>, value: unknown) => {
    const parsed = "safeParse" in schema ? schema.safeParse(value) : check(schema, value);
    if (parsed.success) return { ok: parsed.data };
    const issues = "error" in parsed ? parsed.error.issues : parsed.issues;
    return { refused: issues.map((issue) => issue.message) };
  };

  const samples = [
    "https://shop.example/hooks",
    "https://shop.example/hooks/",
    "  https://shop.example/a  ",
    "https://exa\nmple.com/x",
    "https://shop.example/a\tb",
    "http://127.0.0.1:8787",
    "HTTP://Shop.Example",
    "http:example.com",
    "https:/path",
    "ftp://files.example/x",
    "mailto:a@b.example",
    "javascript:alert(1)",
    "//shop.example",
    "shop.example",
    "",
    "   ",
    "https://",
    "https://a b.example",
    "https://[::1]:8787/",
    "https://user:pw@shop.example/",
  ];

  for (const [name, old, own] of pairs) {
    it.each(samples)(`${name}: %j gets the same verdict and value`, (value) => {
      expect(verdict(own, value)).toEqual(verdict(old, value));
    });

    it(`${name}: the same verdict and value on generated URLs and near-URLs`, () => {
      const mangled = fc
        .tuple(
          fc.webUrl(),
          fc.nat(),
          fc.constantFrom("", " ", "\t", "\n", ":", "//", "%", "[", "@"),
        )
        .map(([s, at, piece]) => s.slice(0, at % (s.length + 1)) + piece + s.slice(at % s.length));
      fc.assert(
        fc.property(fc.oneof(fc.webUrl(), mangled, fc.string()), (value) => {
          expect(verdict(own, value)).toEqual(verdict(old, value));
        }),
        { numRuns: 1000 },
      );
    });
  }

  it('refuses what is not a string with invalid_type, as zod did (config says "is required")', () => {
    for (const [, old, own] of pairs) {
      const parsed = check(own, 42);
      expect(parsed.success ? null : parsed.issues[0]?.code).toBe("invalid_type");
      expect(old.safeParse(42).error?.issues[0]?.code).toBe("invalid_type");
    }
  });
});
