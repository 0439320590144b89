/**
 * @module
 * Bech32 (BIP-173) and bech32m (BIP-350) strings, and segwit addresses built on them.
 *
 * Invariants: pure, no imports (the widget bundles this module into its on-demand
 * `/address.js`). A string is valid in at most one of the two encodings (BIP-350), so the
 * checksum constant found names the encoding. Segwit decoding follows BIP-350's rules: witness
 * version 0 must use bech32 with a 20- or 32-byte program, versions 1–16 bech32m with 2–40
 * bytes, and the 5-to-8-bit conversion leaves fewer than 5 padding bits, all zero.
 */

const CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
const GENERATOR = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
const BECH32M_CONST = 0x2bc830a3;

/** The two checksum variants. */
export type Bech32Encoding = "bech32" | "bech32m";

/** A string whose checksum holds: its lower-case human-readable part and 5-bit data words. */
export interface Bech32String {
  encoding: Bech32Encoding;
  hrp: string;
  /** Data words without the 6 checksum words. */
  words: number[];
}

/** A decoded segwit address. */
export interface SegwitAddress {
  hrp: string;
  version: number;
  program: Uint8Array;
}

function polymod(values: readonly number[]): number {
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= GENERATOR[i]!;
  }
  return chk;
}

/**
 * Decodes a bech32 or bech32m string, or returns null when it is malformed (length over 90,
 * characters outside 33–126, mixed case, no separator, empty human-readable part, fewer than
 * 6 checksum words, a word outside the charset) or its checksum fails.
 *
 * @example
 * decodeBech32("a12uel5l"); // { encoding: "bech32", hrp: "a", words: [] }
 * decodeBech32("a12uel5m"); // null: one character changed
 */
export function decodeBech32(text: string): Bech32String | null {
  if (text.length > 90) return null;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 33 || code > 126) return null;
  }
  const lower = text.toLowerCase();
  if (text !== lower && text !== text.toUpperCase()) return null;
  const sep = lower.lastIndexOf("1");
  if (sep < 1 || sep + 7 > lower.length) return null;
  const hrp = lower.slice(0, sep);
  const data: number[] = [];
  for (const c of lower.slice(sep + 1)) {
    const v = CHARSET.indexOf(c);
    if (v < 0) return null;
    data.push(v);
  }
  const expanded: number[] = [];
  for (let i = 0; i < hrp.length; i++) expanded.push(hrp.charCodeAt(i) >> 5);
  expanded.push(0);
  for (let i = 0; i < hrp.length; i++) expanded.push(hrp.charCodeAt(i) & 31);
  const residue = polymod([...expanded, ...data]);
  const encoding = residue === 1 ? "bech32" : residue === BECH32M_CONST ? "bech32m" : null;
  return encoding ? { encoding, hrp, words: data.slice(0, -6) } : null;
}

/** 5-bit words to bytes; null when the padding is 5 bits or more, or not all zero. */
function wordsToBytes(words: readonly number[]): Uint8Array | null {
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const w of words) {
    acc = ((acc << 5) | w) & 0xfff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 0xff);
    }
  }
  if (bits >= 5 || (acc << (8 - bits)) & 0xff) return null;
  return new Uint8Array(out);
}

/**
 * The result of reading a string as a segwit address: the address, `checksum` when the
 * string is no valid bech32/bech32m at all (a typo), or `invalid` when the checksum holds but
 * the segwit rules do not (wrong encoding for the version, program length, padding).
 *
 * @example
 * decodeSegwit("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"); // { hrp: "bc", version: 0, program: 20 bytes }
 * decodeSegwit("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5"); // "checksum"
 */
export function decodeSegwit(text: string): SegwitAddress | "checksum" | "invalid" {
  const decoded = decodeBech32(text);
  if (!decoded) return "checksum";
  const [version, ...rest] = decoded.words;
  if (version === undefined || version > 16) return "invalid";
  if (decoded.encoding !== (version === 0 ? "bech32" : "bech32m")) return "invalid";
  const program = wordsToBytes(rest);
  if (!program || program.length < 2 || program.length > 40) return "invalid";
  if (version === 0 && program.length !== 20 && program.length !== 32) return "invalid";
  return { hrp: decoded.hrp, version, program };
}
