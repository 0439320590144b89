/**
 * @module
 * QR code as one SVG path. The encoder (uqr) is an on-demand script (`/qr.js`, ~4 KB gzip)
 * fetched when the checkout opens in in-page mode, so the first paint does not wait for it.
 * The quiet zone is part of the drawing: four white modules on every side, also in dark mode.
 */
import { loadScriptOnce, pageGlobal } from "./assets.ts";

/** uqr's `encode`, as far as the widget uses it. */
export type QrEncode = (
  text: string,
  options: { ecc: "M"; border: 0 },
) => { data: boolean[][]; size: number };

const slot = () => pageGlobal<{ encode?: QrEncode }>("__cryptoCheckoutQr", () => ({}));

/** Makes the encoder available (what `/qr.js` does when it loads). */
export function registerQrEncoder(encode: QrEncode): void {
  slot().encode = encode;
}

/** Starts loading the encoder from the widget's origin; resolves when it is there (or gave up). */
export function loadQrEncoder(assetBase: string): Promise<void> {
  return slot().encode
    ? Promise.resolve()
    : loadScriptOnce(`${assetBase.replace(/\/+$/, "")}/qr.js`);
}

/**
 * SVG `viewBox` size and path data for `text`, or null while the encoder is not loaded.
 *
 * @example
 * const qr = qrPath("bitcoin:tb1q…?amount=0.001"); // { size: 37, path: "M4 4h1v1h-1z…" }
 */
export function qrPath(text: string): { size: number; path: string } | null {
  const encode = slot().encode;
  if (!encode) return null;
  const { data, size } = encode(text, { ecc: "M", border: 0 });
  let path = "";
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) if (data[y]?.[x]) path += `M${x + 4} ${y + 4}h1v1h-1z`;
  }
  return { size: size + 8, path };
}
