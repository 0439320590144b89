/**
 * @module
 * Builds the package into `dist/`: `index.js` (ESM) and `index.cjs` (CommonJS) bundled by
 * esbuild with nothing external (there are no dependencies), and type declarations by `tsc`
 * for both (`.d.ts` beside the ESM build, `.d.cts` beside the CommonJS one). The contract
 * package (`packages/contract`: the claim rules, the HTTP API's types) is private and inlined:
 * esbuild bundles its rules, and `tsc` emits its declarations under `dist/types/` with the
 * repository's layout beside the package's own, which `dist/index.d.ts` re-exports. The packed
 * package keeps no dependency, so it installs offline.
 *
 * Run from the repository (devDependencies esbuild and typescript): `npm run build -w @crypto-checkout/server`.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const PACKAGE = fileURLToPath(new URL("..", import.meta.url));
const DIST = join(PACKAGE, "dist");
const require = createRequire(import.meta.url);

rmSync(DIST, { recursive: true, force: true });

for (const format of ["esm", "cjs"] as const) {
  await build({
    entryPoints: [join(PACKAGE, "src/index.ts")],
    outfile: join(DIST, format === "esm" ? "index.js" : "index.cjs"),
    bundle: true,
    format,
    platform: "neutral",
    // Node 20, Bun, Deno and Workers all run ES2022.
    target: "es2022",
    legalComments: "none",
    logLevel: "warning",
  });
}

execFileSync(
  process.execPath,
  [require.resolve("typescript/bin/tsc"), "-p", join(PACKAGE, "tsconfig.build.json")],
  {
    stdio: "inherit",
  },
);

/** Every `.d.ts` under `dir`. */
function declarations(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return declarations(path);
    return path.endsWith(".d.ts") ? [path] : [];
  });
}

// CommonJS consumers (`moduleResolution: node16`) need `.d.cts` files importing `.cjs` paths;
// the declarations are types only, so the same text serves both formats.
// tsc keeps the sources' `.ts` specifiers in declarations: point them at the emitted files.
const SPECIFIER = /(from\s+["']\.{1,2}\/[^"']+)\.ts(["'])/g;
for (const file of declarations(join(DIST, "types"))) {
  const text = readFileSync(file, "utf8");
  writeFileSync(file, text.replace(SPECIFIER, "$1.js$2"));
  writeFileSync(file.replace(/\.d\.ts$/, ".d.cts"), text.replace(SPECIFIER, "$1.cjs$2"));
}
const entry = "./types/packages/server/src/index";
writeFileSync(join(DIST, "index.d.ts"), `export * from "${entry}.js";\n`);
writeFileSync(join(DIST, "index.d.cts"), `export * from "${entry}.cjs";\n`);
