/**
 * @module
 * `npm run build:widget`: the script-tag bundle `dist/public/widget.js` (IIFE, served by the
 * worker as a static asset at /widget.js), one small script per extra locale
 * (`dist/public/i18n/<lang>.js`, loaded only when needed), the on-demand QR encoder
 * (`qr.js`) and refund-address check (`address.js`: the worker's own
 * `worker/lib/addresses/address-rules.ts`), the on-demand views (`topup.js`: top-up
 * mode; `refund.js`: the refund form; `payment.js`: the payment instructions; `hosted.js`:
 * the service's payment page; `wallet.js`: paying from the shopper's wallet, x402), and the ESM build `dist/widget.esm.js` with its types.
 *
 * On-demand views: in the script-tag bundle, imports of `topup.tsx`, `views/refund-form.tsx`,
 * `views/payment.tsx`, `views/hosted.tsx` and `views/wallet.tsx` resolve to the stand-ins in `widget/lazy/`, which
 * load the chunk when first rendered. A view's own stylesheet (`views/<view>.css`) travels
 * in its chunk: widget.js carries only `styles.css` (the card, the picker, the states). A chunk borrows the bundle's Preact, hooks and `ApiFailure`
 * (`widget/lazy/shared.ts`): its imports of those compile to reads of a page global.
 * The ESM build and the tests import the views directly.
 *
 * It also writes `dist/public/_headers` (Workers static assets' header rules): every asset
 * answers with `X-Content-Type-Options: nosniff`, like every answer of the worker itself
 * (`worker/edge/http/no-sniff.ts`).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { type BuildOptions, build, type Plugin, transform } from "esbuild";
import { type MinifyOptions, minify } from "terser";
import { CATALOGUES, exportName } from "../widget/i18n/locales.ts";
import { HOOKS_KEY, SHARED_GLOBAL, SHARED_NAMES } from "../widget/lazy/shared-names.ts";
import { writeOpenApiAsset } from "./openapi-asset.ts";
import { TERSER_OPTIONS } from "./worker-build.ts";

/** A stylesheet, minified, inlined as a string (`import css from "./styles.css?inline"`). */
const minifiedCss = async (path: string) =>
  (await transform(readFileSync(path, "utf8"), { loader: "css", minify: true })).code;

/**
 * Classic JSX: `createElement(type, props, ...children)`, Preact's own (the bundle carries it
 * anyway), rather than the tsconfig's automatic runtime, whose `jsx(type, { ...props,
 * children }, key)` is a second element factory. The same vnodes: `createElement` takes `key`
 * and (on elements) `ref` out of the props as `jsx` does, and one child or an array of them
 * as `children`. The types and the tests keep the automatic runtime.
 */
const classicJsx: Plugin = {
  name: "classic-jsx",
  setup(b) {
    b.onLoad({ filter: /\.tsx$/ }, (args) => ({
      contents: `/** @jsxRuntime classic @jsx createElement @jsxFrag Fragment */ import { createElement, Fragment } from "preact"; ${readFileSync(args.path, "utf8")}`,
      loader: "tsx",
    }));
  },
};

const common: BuildOptions = {
  bundle: true,
  minify: true,
  target: "es2022",
  charset: "utf8",
  jsx: "automatic",
  jsxImportSource: "preact",
  legalComments: "none",
  logLevel: "warning",
  plugins: [
    classicJsx,
    {
      name: "minified-css-text",
      setup(b) {
        b.onLoad({ filter: /\.css$/ }, async (args) => ({
          contents: `export default ${JSON.stringify(await minifiedCss(args.path))}`,
          loader: "js",
        }));
      },
    },
  ],
};

/** Script-tag bundle: the on-demand views resolve to their stand-ins. */
const lazyViews: Plugin = {
  name: "lazy-views",
  setup(b) {
    const standIns: Record<string, string> = {
      "./topup.tsx": "widget/lazy/topup.ts",
      "./views/refund-form.tsx": "widget/lazy/refund-form.ts",
      "./views/payment.tsx": "widget/lazy/payment.ts",
      "./views/hosted.tsx": "widget/lazy/hosted.ts",
      "./views/later.tsx": "widget/lazy/later.ts",
      "./views/wallet.tsx": "widget/lazy/wallet.ts",
    };
    b.onResolve({ filter: /(topup|refund-form|payment|hosted|later|wallet)\.tsx$/ }, (args) => {
      const standIn = standIns[args.path];
      return standIn ? { path: `${process.cwd()}/${standIn}` } : undefined;
    });
    // Locale resolution (and the registry's list): `i18n/resolve.js`, for non-English shoppers.
    b.onResolve({ filter: /^\.\/resolve\.ts$/ }, (args) =>
      args.importer.endsWith("/i18n/index.ts")
        ? { path: `${process.cwd()}/widget/lazy/resolve.ts` }
        : undefined,
    );
    // English: the first-paint texts only; each chunk adds its view's.
    b.onResolve({ filter: /^\.\/en\.ts$/ }, (args) =>
      args.importer.endsWith("/i18n/index.ts")
        ? { path: `${process.cwd()}/widget/lazy/en.ts` }
        : undefined,
    );
  },
};

/**
 * Chunks: imports of the shared modules read the bundle's copies from a page global. Hooks
 * are the exception: widget.js has none, so each chunk carries the hooks runtime (bound to the
 * bundle's `options`), evaluated only by the first chunk that runs on the page (`require`
 * makes esbuild wrap the module in a lazy initialiser); the others take that copy, so every
 * hook on the page shares one runtime.
 */
const sharedRuntime: Plugin = {
  name: "shared-runtime",
  setup(b) {
    const hooksFile = `${process.cwd()}/node_modules/preact/hooks/dist/hooks.mjs`;
    const HOOKS = ["useEffect", "useRef", "useState"];
    b.onResolve({ filter: /^preact(\/.*)?$|\/api\.ts$|^hooks-used$/ }, (args) => {
      if (args.namespace === "hooks-once")
        return args.path === "hooks-used"
          ? { path: "hooks-used", namespace: "hooks-once" }
          : { path: hooksFile };
      if (args.path === "preact/hooks") return { path: "preact/hooks", namespace: "hooks-once" };
      return { path: args.path.endsWith("api.ts") ? "api.ts" : args.path, namespace: "shared" };
    });
    // `hooks-used`: only the hooks chunks use, so the rest of the runtime is left out.
    b.onLoad({ filter: /.*/, namespace: "hooks-once" }, (args) => ({
      contents:
        args.path === "hooks-used"
          ? `export { ${HOOKS.join(", ")} } from "preact/hooks";`
          : `const shared = globalThis[${JSON.stringify(SHARED_GLOBAL)}]; export const { ${HOOKS.join(", ")} } = (shared[${JSON.stringify(HOOKS_KEY)}] ??= require("hooks-used"));`,
      loader: "js",
    }));
    b.onLoad({ filter: /.*/, namespace: "shared" }, (args) => {
      const names = (SHARED_NAMES as Record<string, readonly string[]>)[args.path];
      if (!names) return { errors: [{ text: `a chunk may not import ${args.path} itself` }] };
      const from = `globalThis[${JSON.stringify(SHARED_GLOBAL)}][${JSON.stringify(args.path)}]`;
      return { contents: `export const { ${names.join(", ")} } = ${from};`, loader: "js" };
    });
  },
};

/** Locale scripts: `registerLocale` needs no English (the bundle has it), so none is bundled. */
const noEnglish: Plugin = {
  name: "no-english",
  setup(b) {
    b.onResolve({ filter: /^\.\/en\.ts$/ }, () => ({ path: "en", namespace: "no-english" }));
    b.onLoad({ filter: /.*/, namespace: "no-english" }, () => ({
      contents: "export const en = {};",
      loader: "js",
    }));
  },
};

mkdirSync("dist/public/i18n", { recursive: true });
// Static assets never run the worker: the platform adds their headers from this file.
writeFileSync("dist/public/_headers", "/*\n  X-Content-Type-Options: nosniff\n");
// The OpenAPI document the worker serves from the assets (`openapi-asset.ts`).
writeOpenApiAsset();
await build({
  ...common,
  plugins: [...(common.plugins ?? []), lazyViews],
  entryPoints: ["widget/script-tag.ts"],
  format: "iife",
  outfile: "dist/public/widget.js",
});
// The locale resolver with the registry's list (see `widget/lazy/resolve.ts`).
await build({
  ...common,
  stdin: {
    contents: `import { resolveLocale } from "./i18n/resolve.ts"; import { registerView } from "./lazy/registry.ts"; registerView("resolve", resolveLocale);`,
    resolveDir: "widget",
    loader: "ts",
  },
  format: "iife",
  outfile: "dist/public/i18n/resolve.js",
});
// One script per catalogue of the registry (`widget/i18n/locales.ts`), fetched on demand.
for (const tag of CATALOGUES) {
  const name = exportName(tag);
  await build({
    ...common,
    plugins: [...(common.plugins ?? []), noEnglish],
    stdin: {
      contents: `import { ${name} } from "./i18n/${tag}.ts"; import { registerLocale } from "./i18n/registry.ts"; registerLocale("${tag}", ${name});`,
      resolveDir: "widget",
      loader: "ts",
    },
    format: "iife",
    outfile: `dist/public/i18n/${tag}.js`,
  });
}
await build({
  ...common,
  stdin: {
    contents: `import { encode } from "uqr"; import { registerQrEncoder } from "./qr.ts"; registerQrEncoder(encode);`,
    resolveDir: "widget",
    loader: "ts",
  },
  format: "iife",
  outfile: "dist/public/qr.js",
});
await build({
  ...common,
  stdin: {
    contents: `import { checkAddress } from "../worker/lib/addresses/address-rules.ts"; import { registerAddressCheck } from "./address-check.ts"; registerAddressCheck(checkAddress);`,
    resolveDir: "widget",
    loader: "ts",
  },
  format: "iife",
  outfile: "dist/public/address.js",
});
// payment.js also brings what the card shows only in later states (views/later.tsx, read by
// widget/lazy/later.ts) with its English texts (enStatus).
const LATER = ` import { LaterNote, laterStatus } from "./views/later.tsx"; registerView("later-note", LaterNote); registerView("later-status", laterStatus);`;
// [file, module, export, registered name (as in widget/lazy/<stand-in>.ts), its English texts
// (i18n/en-views.ts: the view's own and those of the payment panel parts it reuses)]
for (const [file, view, name, registered, texts] of [
  ["topup.js", "./topup.tsx", "TopUp", "topup", ["enTopUp", "enPayment", "enStatus"]],
  ["refund.js", "./views/refund-form.tsx", "RefundForm", "refund-form", ["enRefund"]],
  // payment.js also brings the card's texts for every state after the choice (`enStatus`).
  ["payment.js", "./views/payment.tsx", "PaymentPanel", "payment", ["enPayment", "enStatus"]],
  ["hosted.js", "./views/hosted.tsx", "HostedPanel", "hosted", ["enHosted", "enPayment"]],
  // Paying from the shopper's wallet (x402): fetched when the shopper clicks its button.
  ["wallet.js", "./views/wallet.tsx", "WalletPay", "wallet", ["enWallet"]],
] as const) {
  const english = `import { ${texts.join(", ")} } from "./i18n/en-views.ts"; import { addEnglish } from "./lazy/english.ts"; ${texts.map((t) => `addEnglish(${t});`).join(" ")}`;
  await build({
    ...common,
    plugins: [...(common.plugins ?? []), sharedRuntime],
    stdin: {
      contents: `${english} import { ${name} } from "${view}"; import { registerView } from "./lazy/registry.ts"; registerView("${registered}", ${name});${file === "payment.js" ? LATER : ""}`,
      resolveDir: "widget",
      loader: "ts",
    },
    format: "iife",
    outfile: `dist/public/${file}`,
  });
}
/**
 * The browser scripts (not the ESM build, which its user's bundler minifies) through terser
 * after esbuild, with the worker's options (`TERSER_OPTIONS`, whose safety README "Worker
 * bundle size" states): its compressor's second look and names chosen by frequency, which gzip
 * likes (widget.js −260 B gzip). Classic scripts, so not `module` (each keeps its
 * `"use strict"` and IIFE).
 */
const BROWSER_TERSER_OPTIONS = { ...TERSER_OPTIONS, module: false } satisfies MinifyOptions;
for (const file of readdirSync("dist/public", { recursive: true, encoding: "utf8" })) {
  if (!file.endsWith(".js")) continue;
  const path = `dist/public/${file}`;
  const { code } = await minify(readFileSync(path, "utf8"), BROWSER_TERSER_OPTIONS);
  if (typeof code !== "string") throw new Error(`terser returned no code for ${path}`);
  writeFileSync(path, code);
}
await build({
  ...common,
  entryPoints: ["widget/index.ts"],
  format: "esm",
  outfile: "dist/widget.esm.js",
});
// Self-contained types: the contract (types only, no runtime code) in place of its import.
const contract = readFileSync("packages/contract/src/http-api.ts", "utf8");
const declarations = readFileSync("widget/esm-types.d.ts", "utf8").replace(
  /^import type \{[^}]*\} from "\.\.\/packages\/contract\/src\/http-api\.ts";$/m,
  contract,
);
if (declarations.includes('http-api.ts"'))
  throw new Error("widget/esm-types.d.ts: contract import not inlined");
writeFileSync("dist/widget.esm.d.ts", declarations);
