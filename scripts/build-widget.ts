/**
 * @module
 * `npm run build:widget`: the script-tag bundle `dist/public/widget.js` (IIFE, served by the
 * worker as a static asset at /widget.js), one small script per extra locale
 * (`dist/public/i18n/<lang>.js`, loaded only when needed), the on-demand QR encoder
 * (`qr.js`) and refund-address check (`address.js`: the worker's own
 * `worker/checkout/address-rules.ts`), and the ESM build
 * `dist/widget.esm.js` with its types.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { type BuildOptions, build, transform } from "esbuild";

const LOCALES = ["de", "fr", "es", "ar"];

/** The stylesheet, minified, inlined as a string (`import css from "./styles.css"`). */
const css = (
  await transform(readFileSync("widget/styles.css", "utf8"), { loader: "css", minify: true })
).code;

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
    {
      name: "minified-css-text",
      setup(b) {
        b.onLoad({ filter: /\.css$/ }, () => ({
          contents: `export default ${JSON.stringify(css)}`,
          loader: "js",
        }));
      },
    },
  ],
};

mkdirSync("dist/public/i18n", { recursive: true });
await build({
  ...common,
  entryPoints: ["widget/script-tag.ts"],
  format: "iife",
  outfile: "dist/public/widget.js",
});
for (const lang of LOCALES) {
  await build({
    ...common,
    stdin: {
      contents: `import { ${lang} } from "./i18n/${lang}.ts"; import { registerLocale } from "./i18n/index.ts"; registerLocale("${lang}", ${lang});`,
      resolveDir: "widget",
      loader: "ts",
    },
    format: "iife",
    outfile: `dist/public/i18n/${lang}.js`,
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
    contents: `import { checkAddress } from "../worker/checkout/address-rules.ts"; import { registerAddressCheck } from "./address-check.ts"; registerAddressCheck(checkAddress);`,
    resolveDir: "widget",
    loader: "ts",
  },
  format: "iife",
  outfile: "dist/public/address.js",
});
await build({
  ...common,
  entryPoints: ["widget/index.ts"],
  format: "esm",
  outfile: "dist/widget.esm.js",
});
// Self-contained types: the contract (types only, no runtime code) in place of its import.
const contract = readFileSync("worker/api/contract.ts", "utf8");
const declarations = readFileSync("widget/esm-types.d.ts", "utf8").replace(
  /^import type \{[^}]*\} from "\.\.\/worker\/api\/contract\.ts";$/m,
  contract,
);
if (declarations.includes('contract.ts"'))
  throw new Error("widget/esm-types.d.ts: contract import not inlined");
writeFileSync("dist/widget.esm.d.ts", declarations);
