/**
 * @module
 * The worker's deploy artifact, `dist/worker/index.js` (+ `index.js.map`): what `wrangler deploy`
 * uploads and what `wrangler dev` runs (wrangler.toml: `[build] command`, `main` on the output,
 * `no_bundle = true`). Two steps:
 *
 * 1. esbuild bundles `worker/index.ts` with exactly the options wrangler 4 gives it for
 *    `wrangler deploy` (`bundleWorker` in wrangler's `deployment-bundle/bundle.ts`): ESM, target
 *    es2024 (+ `using`, `import-source`), conditions `workerd, worker, browser`, the JSX loaders
 *    for `.js`, `NODE_ENV` and `navigator.userAgent` defined, `cloudflare:*` external, minified,
 *    no `keepNames`. Same esbuild version as wrangler's (pinned in package.json); with these
 *    options alone the output is byte for byte what `wrangler deploy --dry-run` wrote before
 *    this step existed (`test/node/worker-build.test.ts`). One source transform on top: the
 *    SQL templates' whitespace compacted (`sql-compaction.ts`).
 * 2. terser 5 compresses and mangles that output again (esbuild's minifier is one pass):
 *    ≈ 2.9 KB of gzip. Only options terser documents as safe: its default compress options
 *    (every `unsafe*` off) with `passes: 3`, `pure_getters: false` (a property read is never
 *    dropped, so a getter with a side effect still runs), `lhs_constants: false`, and
 *    `module: true` (the file is an ES module: strict mode, top-level names are local). Function and class names are mangled,
 *    as `keep_names = false` did before: nothing in the worker reads `.name` (README "Worker
 *    bundle size").
 *
 * The source map is chained through both steps (stack traces under `wrangler dev` name the
 * TypeScript files).
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { type BuildOptions, build, type Plugin } from "esbuild";
import { type MinifyOptions, minify } from "terser";
import { compactSqlTemplates } from "./sql-compaction.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The worker's entry module (its default export and every Durable Object class). */
export const WORKER_ENTRY = "worker/index.ts";
/** Where the artifact goes (git-ignored); wrangler.toml's `main` is `dist/worker/index.js`. */
export const WORKER_OUT_DIR = join(ROOT, "dist/worker");

/** What `wrangler deploy` sets `process.env.NODE_ENV` to; one artifact for deploy and dev. */
const NODE_ENV = JSON.stringify("production");

/**
 * esbuild's options, as wrangler 4.156's `bundleWorker` builds them for `wrangler deploy`
 * (`COMMON_ESBUILD_OPTIONS`, `getBuildConditions()`, its `define`s; its plugins only mark
 * `cloudflare:*` external here: no aliases, no Node.js compatibility, no module rules in use).
 */
export const ESBUILD_OPTIONS = {
  entryPoints: [WORKER_ENTRY],
  bundle: true,
  absWorkingDir: ROOT,
  keepNames: false,
  outdir: WORKER_OUT_DIR,
  entryNames: "index",
  external: ["__STATIC_CONTENT_MANIFEST", "cloudflare:*"],
  format: "esm",
  target: "es2024",
  supported: { "import-source": true, using: true },
  sourcemap: true,
  sourceRoot: WORKER_OUT_DIR,
  minify: true,
  conditions: ["workerd", "worker", "browser"],
  define: {
    "navigator.userAgent": JSON.stringify("Cloudflare-Workers"),
    "process.env.NODE_ENV": NODE_ENV,
    "global.process.env.NODE_ENV": NODE_ENV,
    "globalThis.process.env.NODE_ENV": NODE_ENV,
  },
  loader: { ".js": "jsx", ".mjs": "jsx", ".cjs": "jsx" },
  logLevel: "silent",
  write: false,
} as const satisfies BuildOptions;

/** The worker's own modules go through `compactSqlTemplates` before esbuild reads them. */
export const compactSql: Plugin = {
  name: "compact-sql-templates",
  setup(b) {
    b.onLoad({ filter: /[\\/]worker[\\/].*\.ts$/ }, (args) => ({
      contents: compactSqlTemplates(readFileSync(args.path, "utf8"), args.path).code,
      loader: "ts",
    }));
  },
};

/**
 * terser's options: its documented-safe defaults, three passes, no getter assumed pure, and
 * `lhs_constants` off (it turns `a == 1` into `1 == a`: smaller raw, but −58 B of gzip left
 * as written, where the same comparison repeats elsewhere). Turning a transform off is
 * always safe.
 */
export const TERSER_OPTIONS = {
  module: true,
  compress: { passes: 3, pure_getters: false, lhs_constants: false },
  mangle: true,
  format: { comments: false },
} as const satisfies MinifyOptions;

/** The artifact's files, in memory. */
export interface WorkerArtifact {
  /** esbuild's bundle alone (SQL templates compacted, else as wrangler would bundle it). */
  readonly bundled: string;
  /** The uploaded module: the bundle after terser, ending in its `sourceMappingURL`. */
  readonly code: string;
  /** Its source map (sources relative to `dist/worker/`). */
  readonly map: string;
}

/**
 * Bundles and minifies the worker, in memory.
 *
 * @example
 * const { code } = await buildWorkerArtifact();
 * code.includes("export{"); // true
 */
export async function buildWorkerArtifact(): Promise<WorkerArtifact> {
  const result = await build({ ...ESBUILD_OPTIONS, plugins: [compactSql] });
  const file = (ext: string) => {
    const found = result.outputFiles.find((f) => f.path.endsWith(ext));
    if (!found) throw new Error(`esbuild wrote no ${ext} for ${WORKER_ENTRY}`);
    return found.text;
  };
  const bundled = file(".js");
  const bundledMap = file(".js.map");
  const minified = await minify(
    { "index.js": bundled.replace(/\n\/\/# sourceMappingURL=\S+\n?$/, "\n") },
    {
      ...TERSER_OPTIONS,
      sourceMap: { content: bundledMap, url: "index.js.map", includeSources: true },
    },
  );
  if (typeof minified.code !== "string" || typeof minified.map !== "string")
    throw new Error("terser returned no code or no source map");
  // terser resolves esbuild's sources against its `sourceRoot` (absolute paths): relative to
  // the map's own folder instead, so the map does not depend on where the checkout lives.
  const map = JSON.parse(minified.map) as { sources: string[]; sourceRoot?: string };
  map.sources = map.sources.map((source) => relative(WORKER_OUT_DIR, source));
  delete map.sourceRoot;
  return { bundled, code: `${minified.code}\n`, map: JSON.stringify(map) };
}

/**
 * Builds the artifact and writes `dist/worker/index.js` and `index.js.map`; returns the
 * module's path.
 *
 * @example
 * await writeWorkerArtifact(); // ".../dist/worker/index.js"
 */
export async function writeWorkerArtifact(): Promise<string> {
  const { code, map } = await buildWorkerArtifact();
  mkdirSync(WORKER_OUT_DIR, { recursive: true });
  const path = join(WORKER_OUT_DIR, "index.js");
  // Written aside, then renamed: a `wrangler dev` of another stack in this checkout that reads
  // the file meanwhile sees the old module or the new one, never half of one.
  for (const [file, text] of [
    [`${path}.map`, map],
    [path, code],
  ] as const) {
    const aside = `${file}.${process.pid}.tmp`;
    writeFileSync(aside, text);
    renameSync(aside, file);
  }
  return path;
}
