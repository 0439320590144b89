/**
 * @module
 * `node scripts/widget-size.ts`: raw and gzip sizes of the built widget (run
 * `npm run build:widget` first). The budget applies to the script-tag bundle `widget.js`
 * (JS + inlined CSS), which is all an in-page shopper downloads before the currency picker;
 * the on-demand pieces are listed too (QR encoder, address check, the payment instructions,
 * the refund form, top-up mode, the hosted view, locales), with what an English shopper paying in-page
 * downloads in total (widget.js + payment.js + qr.js), so no figure hides behind the split.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

/** The script-tag bundle's gzip budget in bytes. */
export const BUDGET_GZIP = 12_288;

/** One built file's size. */
export interface FileSize {
  file: string;
  raw: number;
  gzip: number;
}

/**
 * Sizes of the built widget files under `dist` (missing files are skipped).
 *
 * @example
 * widgetSizes().find((f) => f.file === "public/widget.js")?.gzip // 15107
 */
export function widgetSizes(dist = "dist"): FileSize[] {
  const locales = existsSync(`${dist}/public/i18n`)
    ? readdirSync(`${dist}/public/i18n`).map((f) => `public/i18n/${f}`)
    : [];
  return [
    "public/widget.js",
    "public/payment.js",
    "public/qr.js",
    "public/address.js",
    "public/refund.js",
    "public/topup.js",
    "public/hosted.js",
    "public/wallet.js",
    ...locales,
    "widget.esm.js",
  ]
    .filter((file) => existsSync(`${dist}/${file}`))
    .map((file) => {
      const bytes = readFileSync(`${dist}/${file}`);
      return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
    });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const sizes = widgetSizes();
  if (sizes.length === 0) {
    console.error("No widget build in dist/: run `npm run build:widget` first.");
    process.exit(1);
  }
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`.padStart(9);
  for (const s of sizes) console.log(`${s.file.padEnd(24)} ${kb(s.raw)} raw ${kb(s.gzip)} gzip`);
  const main = sizes.find((s) => s.file === "public/widget.js");
  const qr = sizes.find((s) => s.file === "public/qr.js");
  const payment = sizes.find((s) => s.file === "public/payment.js");
  if (main) {
    const verdict = main.gzip <= BUDGET_GZIP ? "within" : "OVER";
    console.log(`widget.js: ${main.gzip} B gzip, ${verdict} the ${BUDGET_GZIP} B budget`);
    if (qr && payment) {
      const total = main.gzip + payment.gzip + qr.gzip;
      console.log(`in-page, English (widget.js + payment.js + qr.js): ${total} B gzip`);
    }
    // Another locale's page fetches its catalogue beside the checkout POST; the picker waits.
    for (const s of sizes.filter((f) => f.file.startsWith("public/i18n/")))
      console.log(
        `before the picker, ${s.file.slice(12, -3)}: widget.js + ${s.file.slice(7)}: ${main.gzip + s.gzip} B gzip`,
      );
    if (main.gzip > BUDGET_GZIP) process.exit(1);
  }
}
