/**
 * @module
 * `node scripts/widget-vite-measure.ts` (after `npm run build:widget`): builds the script-tag
 * widget with vite instead (ES modules; each on-demand view a dynamic `import()` that vite
 * emits as a chunk importing Preact and the rest it shares from the entry; the QR encoder an
 * `import("uqr")`) into `dist/vite-measure/`, and prints each file's gzip beside today's build,
 * measured as `widget-size.ts` measures. The sources are not changed: the stand-ins that load
 * the chunks are virtual modules here. A classic `<script src="…/widget.js">` cannot be an ES
 * module with exports, so `widget.js` is a loader that adds `<script type="module">` for the
 * entry (`widget-main.js`). `docs/decisions.md` ("The widget's build") has the outcome.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { minify } from "terser";
import { build, type Plugin } from "vite";
import { BUDGET_GZIP } from "./widget-size.ts";
import { TERSER_OPTIONS } from "./worker-build.ts";

const W = `${process.cwd()}/widget`;
const OUT = "dist/vite-measure";
const view = (name: string, load: string) =>
  `import { lazyView } from "v:view"; export const ${name} = lazyView(() => ${load}.then((m) => m.${name}));`;
const chunk = (texts: string, exports: string) =>
  `import { ${texts} } from "${W}/i18n/en-views.ts"; import { addEnglish } from "${W}/lazy/english.ts"; for (const t of [${texts}]) addEnglish(t); ${exports}`;

/** Virtual modules by name (imported as `v:<name>`). */
const VIRTUAL: Record<string, string> = {
  entry: `import { defineCheckoutElement } from "${W}/element.ts"; const src = document.querySelector('script[src*="/widget.js"]')?.src; defineCheckoutElement(src ? new URL(src).origin : location.origin);`,
  view: `import { Component, h } from "preact"; export function lazyView(load) { let View; return class extends Component { componentDidMount() { if (!View) load().then((v) => { View = v; this.forceUpdate(); }, () => {}); } render(p) { return View ? h(View, p) : null; } }; }`,
  payment: `export const load = () => import("v:payment-chunk"); for (const t of ["pointerdown", "keydown"]) document.addEventListener(t, () => void load().catch(() => {}), { capture: true, once: true }); ${view("PaymentPanel", "load()")}`,
  later: `import { lazyView } from "v:view"; import { load } from "v:payment"; let later, settled = false; export const laterReady = () => settled ? null : load().then((m) => { later = m; }, () => {}).then(() => { settled = true; }); export const laterStatus = (s, i) => later?.laterStatus(s, i) ?? ""; export const LaterNote = lazyView(() => load().then((m) => m.LaterNote));`,
  hosted: view("HostedPanel", `import("v:hosted-chunk")`),
  refund: view("RefundForm", `import("v:refund-chunk")`),
  wallet: view("WalletPay", `import("v:wallet-chunk")`),
  topup: view("TopUp", `import("v:topup-chunk")`),
  resolve: `let r; export const resolverReady = (req) => { const first = req.find((t) => t?.trim())?.trim() ?? "en"; return r || /^en(-|$)/i.test(first) ? null : import("v:resolve-chunk").then((m) => { r = m.resolveLocale; }, () => {}); }; export const resolveLocale = (req) => r?.(req) ?? { locale: "en", catalogue: "en", dir: "ltr" };`,
  qr: `import { registerQrEncoder } from "${W}/qr.ts"; export { qrPath } from "${W}/qr.ts"; export const loadQrEncoder = () => import("uqr").then((m) => registerQrEncoder(m.encode), () => {});`,
  "payment-chunk": chunk(
    "enPayment, enStatus",
    `export { PaymentPanel } from "${W}/views/payment.tsx"; export { LaterNote, laterStatus } from "${W}/views/later.tsx";`,
  ),
  "hosted-chunk": chunk(
    "enHosted, enPayment",
    `export { HostedPanel } from "${W}/views/hosted.tsx";`,
  ),
  "refund-chunk": chunk("enRefund", `export { RefundForm } from "${W}/views/refund-form.tsx";`),
  "wallet-chunk": chunk("enWallet", `export { WalletPay } from "${W}/views/wallet.tsx";`),
  "topup-chunk": chunk("enTopUp, enPayment, enStatus", `export { TopUp } from "${W}/topup.tsx";`),
  "resolve-chunk": `export { resolveLocale } from "${W}/i18n/resolve.ts";`,
};
/** What the script-tag bundle imports instead (importer under widget/ → import → virtual). */
const STAND_INS: Record<string, Record<string, string>> = {
  "checkout.tsx": {
    "./views/payment.tsx": "payment",
    "./views/hosted.tsx": "hosted",
    "./views/later.tsx": "later",
    "./views/refund-form.tsx": "refund",
    "./views/wallet.tsx": "wallet",
    "./qr.ts": "qr",
  },
  "element.ts": { "./topup.tsx": "topup" },
  "i18n/index.ts": { "./resolve.ts": "resolve", "./en.ts": `${W}/lazy/en.ts` },
  "views/payment.tsx": { "../qr.ts": "qr" },
  "views/hosted.tsx": { "../qr.ts": "qr" },
  "topup.tsx": { "./qr.ts": "qr" },
};
const virtual: Plugin = {
  name: "script-tag-stand-ins",
  enforce: "pre",
  resolveId(source, importer) {
    if (/(^|\/)v:/.test(source)) return `\0${source.replace(/^.*\//, "")}`;
    const to = importer?.startsWith(`${W}/`) && STAND_INS[importer.slice(W.length + 1)]?.[source];
    if (to) return to.startsWith("/") ? to : `\0v:${to}`;
  },
  load: (id) => (id.startsWith("\0v:") ? VIRTUAL[id.slice(3)] : undefined),
};
/** terser with the worker's options on each final chunk (as `build-widget.ts` does). */
const terser: Plugin = {
  name: "terser",
  async generateBundle(_, bundle) {
    for (const file of Object.values(bundle))
      if (file.type === "chunk") file.code = (await minify(file.code, TERSER_OPTIONS)).code ?? "";
  },
};

await build({
  configFile: false,
  logLevel: "warn",
  publicDir: false,
  oxc: {
    jsx: { runtime: "classic", pragma: "createElement", pragmaFrag: "Fragment" },
    jsxInject: 'import { createElement, Fragment } from "preact"',
  },
  plugins: [virtual, terser],
  build: {
    outDir: OUT,
    emptyOutDir: true,
    target: "es2022",
    minify: false,
    cssMinify: "esbuild", // lightningcss adds `--lightningcss-light` fallbacks to `color-scheme`
    lib: { entry: { "widget-main": "v:entry" }, formats: ["es"], fileName: (_, n) => `${n}.js` },
    rolldownOptions: {
      checks: { bundlerTimings: false }, // terser is slow on purpose
      // The lib default, "strict", keeps the entry's exports as written: every module the
      // chunks share goes to a chunk of its own, 6 files before the picker.
      preserveEntrySignatures: "allow-extension",
      output: {
        // A view's chunk by its name (`payment.js`), the encoder `qr.js`, shared ones `*-shared.js`.
        chunkFileNames: ({ facadeModuleId: id, name }) =>
          id?.startsWith("\0v:")
            ? `${id.slice(3, -6)}.js`
            : id?.includes("/uqr/")
              ? "qr.js"
              : `${name}-shared.js`,
        minifyInternalExports: true,
      },
    },
  },
});
writeFileSync(
  `${OUT}/widget.js`,
  `(()=>{const s=document.currentScript,e=document.createElement("script");e.type="module";e.src=new URL("widget-main.js",s.src).href;document.head.append(e)})();\n`,
);

const gzip = (path: string) => gzipSync(readFileSync(path), { level: 9 }).length;
const sum = (dir: string, list: string[]) => list.reduce((n, f) => n + gzip(`${dir}/${f}`), 0);
// Today's file of the same name (the resolver is `i18n/resolve.js` there); "-" where none.
const today = (file: string) => {
  const path = `dist/public/${file === "resolve.js" ? "i18n/" : ""}${file}`;
  return existsSync(path) ? gzip(path) : "-";
};
console.log("file                today   vite (B gzip)");
for (const file of readdirSync(OUT).filter((f) => f.endsWith(".js")))
  console.log(
    `${file.padEnd(18)} ${String(today(file)).padStart(6)} ${String(gzip(`${OUT}/${file}`)).padStart(6)}`,
  );
const before = ["widget.js", "widget-main.js"];
console.log(
  `before the picker: today ${today("widget.js")}, vite ${sum(OUT, before)} (budget ${BUDGET_GZIP})`,
);
const english = [...before, "payment.js", "payment-shared.js", "en-views-shared.js", "qr.js"];
console.log(
  `in-page English: today ${sum("dist/public", ["widget.js", "payment.js", "qr.js"])}, vite ${sum(OUT, english)} (${english.join(" + ")})`,
);
