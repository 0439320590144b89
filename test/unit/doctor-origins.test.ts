import { describe, expect, it } from "vitest";
import { originProblem, originsFailure } from "../../worker/edge/doctor/doctor-origins.ts";

describe("ALLOWED_ORIGINS entries must be exact origins", () => {
  it.each([
    ["https://shop.example.com", null],
    ["http://localhost:3000", null],
    ["https://shop.example.com:8443", null],
    ["*", null],
  ])("%s is an origin", (entry, problem) => {
    expect(originProblem(entry)).toBe(problem);
  });

  it.each([
    ["shop.example.com", "is not an origin (no scheme): write https://shop.example.com"],
    [
      "https://shop.example.com/checkout",
      "has a path, query or fragment: write https://shop.example.com",
    ],
    [
      "https://shop.example.com?x=1",
      "has a path, query or fragment: write https://shop.example.com",
    ],
    [
      "https://Shop.Example.com",
      "is not written the way browsers send it (lower case, no default port): write https://shop.example.com",
    ],
    [
      "https://shop.example.com:443",
      "is not written the way browsers send it (lower case, no default port): write https://shop.example.com",
    ],
    [
      "https://user:pw@shop.example.com",
      "has a user name or password: write https://shop.example.com",
    ],
    ["ftp://shop.example.com", "must start with https:// (or http:// for local development)"],
    ["shop example", "is not an origin (no scheme)"],
  ])("%s is refused: %s", (entry, problem) => {
    expect(originProblem(entry)).toBe(problem);
  });

  it("names every bad entry, none of the good ones", () => {
    const check = originsFailure({
      ALLOWED_ORIGINS: ["https://ok.example", "ok.example", "https://ok.example/x"],
    });
    expect(check?.ok).toBe(false);
    expect(check?.message).toContain('"ok.example"');
    expect(check?.message).toContain('"https://ok.example/x"');
    expect(check?.message).not.toContain('"https://ok.example"');
    expect(originsFailure({ ALLOWED_ORIGINS: ["https://ok.example"] })).toBeNull();
  });
});
