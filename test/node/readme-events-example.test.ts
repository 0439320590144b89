/**
 * The TypeScript example of widget/README.md's *Events* section compiles under `--strict`
 * against the published declarations (`widget/esm-types.d.ts`): `checkout:paid` carries
 * `CheckoutSnapshot | DepositSnapshot`, so an example that reads `invoiceNumber` without
 * narrowing by `kind` would not compile in a storefront's project.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The first ```ts block after `heading` in widget/README.md. */
function example(heading: string): string {
  const readme = readFileSync(join(ROOT, "widget/README.md"), "utf8");
  const section = readme.slice(readme.indexOf(heading));
  const code = section.match(/```ts\n([\s\S]*?)```/)?.[1];
  if (!code) throw new Error(`no ts example under ${heading}`);
  return code;
}

/** tsc --strict on `code` with the declarations in scope; the compiler's complaints, or "". */
function compile(code: string): string {
  const dir = mkdtempSync(join(tmpdir(), "readme-example-"));
  try {
    const file = join(dir, "example.ts");
    writeFileSync(
      file,
      `import type {} from ${JSON.stringify(join(ROOT, "widget/esm-types.d.ts"))};\n${code}\nexport {};\n`,
    );
    execFileSync(
      process.execPath,
      [
        join(ROOT, "node_modules/typescript/bin/tsc"),
        "--strict",
        "--noEmit",
        "--skipLibCheck",
        "--allowImportingTsExtensions",
        "--target",
        "es2022",
        "--module",
        "esnext",
        "--moduleResolution",
        "bundler",
        "--lib",
        "es2022,dom",
        file,
      ],
      { encoding: "utf8", stdio: "pipe" },
    );
    return "";
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("widget/README.md events example", () => {
  it("compiles under --strict (narrowed by kind)", () => {
    expect(compile(example("## Events"))).toBe("");
  });

  it("the un-narrowed version does not (what the README used to show)", () => {
    const unNarrowed = `document.querySelector("crypto-checkout")!.addEventListener("checkout:paid", (e) => {
  location.href = \`/thanks?order=\${e.detail.invoiceNumber}\`;
});`;
    expect(compile(unNarrowed)).toContain("invoiceNumber");
  });
});
