/**
 * @module qr-png
 * A QR code as a PNG data URI, built with web-standard APIs only: uqr gives the module matrix,
 * CompressionStream("deflate") gives the zlib stream PNG's IDAT needs, CRC-32 is computed here.
 */
import { encode } from "uqr";

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

async function deflate(raw: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([raw]).stream().pipeThrough(new CompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * Renders `text` as a black-on-white 8-bit greyscale PNG, `scale` pixels per module.
 * @example
 * const uri = await qrPngDataUri("TWPhG3kXr4gNpAuyNtNFoDvA3zGKMNGQeo"); // "data:image/png;base64,iVBOR…"
 */
export async function qrPngDataUri(text: string, scale = 4): Promise<string> {
  const { data, size } = encode(text, { ecc: "M", border: 2 });
  const px = size * scale;
  const raw = new Uint8Array(px * (px + 1));
  for (let y = 0; y < px; y++) {
    const row = data[Math.floor(y / scale)]!;
    for (let x = 0; x < px; x++) raw[y * (px + 1) + 1 + x] = row[Math.floor(x / scale)] ? 0 : 255;
  }
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, px);
  view.setUint32(4, px);
  ihdr.set([8, 0, 0, 0, 0], 8);
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", await deflate(raw)),
    chunk("IEND", new Uint8Array()),
  ];
  const png = new Uint8Array(await new Blob(parts).arrayBuffer());
  let binary = "";
  for (const b of png) binary += String.fromCharCode(b);
  return `data:image/png;base64,${btoa(binary)}`;
}
