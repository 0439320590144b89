/**
 * The configuration's plain patterns accept exactly what the zod schemas they replaced accept
 * (`worker/core/config/config.ts`): `UUID` is `z.uuid()`, for `ACCOUNT_ID`.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { regexes } from "zod/v4/core";
import { parseConfig, UUID } from "../../worker/core/config/config.ts";
import type { CoreEnv } from "../../worker/core/config/core-env.ts";

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
