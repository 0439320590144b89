/**
 * The worker's deploy artifact (`scripts/worker-build.ts`, wrangler.toml's `[build]`): its
 * esbuild options give wrangler's own bundle byte for byte, terser runs only safe options, the
 * result is deterministic, exports what wrangler.toml binds, and is what `wrangler deploy`
 * uploads (not a re-bundle).
 */
import { execFileSync } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { unstable_readConfig } from "wrangler";
import {
  buildWorkerArtifact,
  ESBUILD_OPTIONS,
  TERSER_OPTIONS,
  WORKER_OUT_DIR,
} from "../../scripts/worker-build.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const WRANGLER = join(ROOT, "node_modules/wrangler/bin/wrangler.js");
const config = unstable_readConfig({ config: join(ROOT, "wrangler.toml") });
const require = createRequire(import.meta.url);
/** One build shared by the tests that only read it (a build takes seconds here). */
let shared: ReturnType<typeof buildWorkerArtifact> | undefined;
const artifact = () => {
  shared ??= buildWorkerArtifact();
  return shared;
};

/**
 * Runs `wrangler deploy --dry-run --outdir` (no network) in `cwd` and answers the uploaded
 * module.
 */
function wranglerDryRun(args: readonly string[], cwd = ROOT): string {
  const out = mkdtempSync(join(tmpdir(), "worker-build-"));
  try {
    execFileSync("node", [WRANGLER, "deploy", "--dry-run", "--outdir", out, ...args], {
      cwd,
      stdio: "pipe",
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    });
    const modules = readdirSync(out).filter((f) => f.endsWith(".js"));
    expect(modules).toEqual(["index.js"]);
    return readFileSync(join(out, "index.js"), "utf8");
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/**
 * A copy of what `wrangler deploy` reads (its config, the build script, the sources) with its
 * own `dist/`: a deploy there never touches this checkout's `dist/worker`, which the stacks
 * other test files run under `wrangler dev` serve (a rewrite would reload them mid-test).
 */
function scratchProject(): string {
  const dir = mkdtempSync(join(tmpdir(), "worker-build-project-"));
  for (const entry of [
    "wrangler.toml",
    "package.json",
    "scripts",
    "worker",
    "packages/contract/src",
  ])
    cpSync(join(ROOT, entry), join(dir, entry), { recursive: true });
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  mkdirSync(join(dir, "dist/public"), { recursive: true });
  return dir;
}

/** The names a module exports, as esbuild reads them. */
async function exportsOf(code: string): Promise<string[]> {
  const result = await build({
    stdin: { contents: code, loader: "js" },
    format: "esm",
    metafile: true,
    write: false,
    outfile: "out.js",
    logLevel: "silent",
  });
  return Object.values(result.metafile.outputs)[0]!.exports;
}

describe("the worker's deploy artifact", () => {
  it("bundles exactly as wrangler's own bundler did, with wrangler's esbuild version", async () => {
    const wranglerEsbuild = require("wrangler/package.json").dependencies.esbuild as string;
    expect(require("esbuild/package.json").version).toBe(wranglerEsbuild);
    // The deploy config as it was before the build step: wrangler bundles the source itself.
    const dir = mkdtempSync(join(tmpdir(), "worker-build-config-"));
    try {
      const reference = join(dir, "wrangler.toml");
      writeFileSync(
        reference,
        [
          'name = "worker-build-reference"',
          `main = ${JSON.stringify(join(ROOT, "worker/index.ts"))}`,
          `compatibility_date = ${JSON.stringify(config.compatibility_date)}`,
          "minify = true",
          "keep_names = false",
        ].join("\n"),
      );
      const byWrangler = wranglerDryRun(["--config", reference]);
      const ours = await build(ESBUILD_OPTIONS);
      expect(ours.outputFiles.find((f) => f.path.endsWith(".js"))?.text).toBe(byWrangler);
      // The artifact adds only the SQL compaction (test/node/sql-compaction.test.ts).
      expect((await artifact()).bundled.length).toBeLessThan(byWrangler.length);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("runs terser with no unsafe option and no getter assumed pure", () => {
    const compress: Record<string, unknown> = TERSER_OPTIONS.compress;
    expect(Object.keys(compress).filter((k) => k.startsWith("unsafe"))).toEqual([]);
    expect(compress.pure_getters).toBe(false);
    expect(TERSER_OPTIONS.module).toBe(true);
  });

  it("is deterministic: two builds give the same module and source map", async () => {
    const [first, second] = [await artifact(), await buildWorkerArtifact()];
    expect(second.code).toBe(first.code);
    expect(second.map).toBe(first.map);
    // terser did run: the upload is smaller than wrangler's bundle.
    expect(first.code.length).toBeLessThan(first.bundled.length);
  });

  it("exports the default handler and every Durable Object class wrangler.toml binds", async () => {
    const { code, bundled, map } = await artifact();
    const classes = config.durable_objects.bindings.map(
      (b: { class_name: string }) => b.class_name,
    );
    expect(classes.length).toBeGreaterThan(0);
    const exported = await exportsOf(code);
    expect(exported.sort()).toEqual(["default", ...classes].sort());
    // The same names as the source's bundle: terser renamed nothing exported.
    expect((await exportsOf(bundled)).sort()).toEqual(exported);
    // Its map points back at the TypeScript sources.
    expect(JSON.parse(map).sources).toContain("../../worker/index.ts");
  });

  it("is what `wrangler deploy` uploads: built by wrangler's [build] step, not re-bundled", async () => {
    expect(config.main).toBe(join(WORKER_OUT_DIR, "index.js"));
    expect(config.no_bundle).toBe(true);
    expect(config.build.command).toBe("node scripts/build-worker.ts");
    // A checkout with no build output: wrangler's own [build] step writes it.
    const project = scratchProject();
    try {
      const uploaded = wranglerDryRun([], project);
      const built = readFileSync(join(project, "dist/worker/index.js"), "utf8");
      expect(uploaded).toBe(built);
      expect(uploaded).toBe((await artifact()).code);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});
