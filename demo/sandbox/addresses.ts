/**
 * @module addresses
 * Fresh, network-valid payment addresses and transaction hashes: EVM (lowercase 0x + 40 hex),
 * Tron (base58check, version byte 0x41, checksum = first 4 bytes of double SHA-256 via
 * crypto.subtle) and Bitcoin testnet (bech32 `tb1q…`, witness v0, correct checksum).
 */

import { CRYPTO_CURRENCIES } from "./currencies.ts";
import { BASE58_MASK } from "./extra-currency.ts";

const B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";

function randomBytes(n: number): Uint8Array<ArrayBuffer> {
  return crypto.getRandomValues(new Uint8Array(n));
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Base58 encoding (Bitcoin alphabet) of a byte string.
 * @example
 * base58(new Uint8Array([0, 1])); // "12"
 */
export function base58(bytes: Uint8Array): string {
  let n = 0n;
  for (const b of bytes) n = n * 256n + BigInt(b);
  let out = "";
  while (n > 0n) {
    out = B58[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = `1${out}`;
  }
  return out;
}

async function sha256(data: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", data));
}

/**
 * Base58check of a payload: payload ‖ first 4 bytes of SHA-256(SHA-256(payload)).
 * @example
 * await base58check(new Uint8Array([0x41, ...new Uint8Array(20)])); // "T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb"
 */
export async function base58check(payload: Uint8Array<ArrayBuffer>): Promise<string> {
  const check = (await sha256(await sha256(payload))).slice(0, 4);
  const all = new Uint8Array(payload.length + 4);
  all.set(payload);
  all.set(check, payload.length);
  return base58(all);
}

function polymod(values: number[]): number {
  const gen = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= gen[i]!;
  }
  return chk;
}

function hrpExpand(hrp: string): number[] {
  const codes = Array.from(hrp, (ch) => ch.charCodeAt(0));
  return [...codes.map((c) => c >>> 5), 0, ...codes.map((c) => c & 31)];
}

/**
 * Bech32 (BIP-173) encoding of a segwit v0 program.
 * @example
 * segwitV0("tb", new Uint8Array(20)); // "tb1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq0l98cr"
 */
export function segwitV0(hrp: string, program: Uint8Array): string {
  const data = [0];
  let acc = 0;
  let bits = 0;
  for (const b of program) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      data.push((acc >>> bits) & 31);
    }
  }
  if (bits > 0) data.push((acc << (5 - bits)) & 31);
  const mod = polymod([...hrpExpand(hrp), ...data, 0, 0, 0, 0, 0, 0]) ^ 1;
  const checksum = [0, 1, 2, 3, 4, 5].map((i) => (mod >>> (5 * (5 - i))) & 31);
  return `${hrp}1${[...data, ...checksum].map((d) => BECH32[d]).join("")}`;
}

/**
 * Verifies a bech32 string's checksum (used by tests and address validation).
 * @example
 * bech32Valid(segwitV0("tb", new Uint8Array(20))); // true
 */
export function bech32Valid(address: string): boolean {
  const pos = address.lastIndexOf("1");
  if (pos < 1) return false;
  const values = Array.from(address.slice(pos + 1), (ch) => BECH32.indexOf(ch));
  if (values.some((v) => v < 0)) return false;
  return polymod([...hrpExpand(address.slice(0, pos)), ...values]) === 1;
}

/**
 * A fresh address for a network name as `GET /currencies` reports it.
 * @example
 * await newAddress("Tron"); // "T…" (34 chars, valid base58check)
 */
export async function newAddress(network: string): Promise<string> {
  if (network === "BTC") return segwitV0("tb", randomBytes(20));
  if (network === "Tron") return base58check(new Uint8Array([0x41, ...randomBytes(20)]));
  // The extra currency on a non-EVM network (`SANDBOX_EXTRA_CURRENCY`): 44 base58 characters.
  if (isBase58Network(network)) return base58(new Uint8Array([1, ...randomBytes(32)])).slice(0, 44);
  return `0x${hex(randomBytes(20))}`;
}

function isBase58Network(network: string): boolean {
  return CRYPTO_CURRENCIES.some((c) => c.network === network && c.addressMask === BASE58_MASK);
}

/**
 * A fresh transaction hash: 0x-prefixed on EVM networks, bare hex on Bitcoin and Tron.
 * @example
 * newTxHash("Ethereum"); // "0x" + 64 hex
 */
export function newTxHash(network: string): string {
  const h = hex(randomBytes(32));
  const evm = network !== "BTC" && network !== "Tron" && !isBase58Network(network);
  return evm ? `0x${h}` : h;
}
