/**
 * @module
 * EIP-55 mixed-case checksums of EVM addresses (Ethereum, BNB Smart Chain), with the
 * Keccak-256 they need (Keccak-f[1600] on pairs of 32-bit words, no BigInt).
 *
 * Invariants: pure, no imports: the widget bundles this very module into its on-demand
 * `/address.js`, so both sides check the same way. Keccak-256 is the original Keccak
 * padding (0x01) that Ethereum uses, not SHA3-256 (0x06).
 */

/** Rotation offsets (ρ) and lane order (π), walked from lane 1 as in the reference code. */
const ROT = [
  1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 2, 14, 27, 41, 56, 8, 25, 43, 62, 18, 39, 61, 20, 44,
];
const PI = [10, 7, 11, 17, 18, 3, 5, 16, 8, 21, 24, 4, 15, 23, 19, 13, 12, 2, 20, 14, 22, 9, 6, 1];

/** Round constants (ι) from the spec's LFSR: low and high 32-bit words, interleaved. */
const RC = new Uint32Array(48);
for (let round = 0, r = 1; round < 24; round++) {
  for (let j = 0; j < 7; j++) {
    r = ((r << 1) ^ ((r >> 7) * 0x71)) & 0xff;
    const bit = (1 << j) - 1;
    if (r & 2) RC[round * 2 + (bit >> 5)]! |= 1 << (bit & 31);
  }
}

/** Keccak-f[1600] on 25 lanes stored as 50 words: lane i is `s[2i]` (low) and `s[2i+1]` (high). */
function permute(s: Uint32Array): void {
  const c = new Uint32Array(10);
  for (let round = 0; round < 24; round++) {
    // θ: each column's parity, folded into its neighbours.
    for (let x = 0; x < 10; x++) c[x] = s[x]! ^ s[x + 10]! ^ s[x + 20]! ^ s[x + 30]! ^ s[x + 40]!;
    for (let x = 0; x < 10; x += 2) {
      const l = c[(x + 2) % 10]!;
      const h = c[(x + 3) % 10]!;
      const lo = c[(x + 8) % 10]! ^ ((l << 1) | (h >>> 31));
      const hi = c[(x + 9) % 10]! ^ ((h << 1) | (l >>> 31));
      for (let y = 0; y < 50; y += 10) {
        s[y + x]! ^= lo;
        s[y + x + 1]! ^= hi;
      }
    }
    // ρ and π: rotate each lane and move it to its new place.
    let lo = s[2]!;
    let hi = s[3]!;
    for (let i = 0; i < 24; i++) {
      const j = PI[i]! * 2;
      const nextLo = s[j]!;
      const nextHi = s[j + 1]!;
      let n = ROT[i]!;
      const [a, b] = n >= 32 ? [hi, lo] : [lo, hi];
      n &= 31;
      s[j] = n ? (a << n) | (b >>> (32 - n)) : a;
      s[j + 1] = n ? (b << n) | (a >>> (32 - n)) : b;
      lo = nextLo;
      hi = nextHi;
    }
    // χ: the only non-linear step, row by row.
    for (let y = 0; y < 50; y += 10) {
      for (let x = 0; x < 10; x++) c[x] = s[y + x]!;
      for (let x = 0; x < 10; x++) s[y + x] = c[x]! ^ (~c[(x + 2) % 10]! & c[(x + 4) % 10]!);
    }
    // ι
    s[0]! ^= RC[round * 2]!;
    s[1]! ^= RC[round * 2 + 1]!;
  }
}

/**
 * Keccak-256 of some bytes. `pad` 0x06 instead of 0x01 gives SHA3-256 (the same sponge), which
 * lets the tests compare every padding boundary with `node:crypto`.
 *
 * @example
 * keccak256(new Uint8Array(0)); // c5d24601…5d85a470
 */
export function keccak256(data: Uint8Array, pad = 0x01): Uint8Array {
  const rate = 136;
  const padded = new Uint8Array((Math.floor(data.length / rate) + 1) * rate);
  padded.set(data);
  padded[data.length]! ^= pad;
  padded[padded.length - 1]! ^= 0x80;
  const s = new Uint32Array(50);
  for (let at = 0; at < padded.length; at += rate) {
    for (let i = 0; i < rate; i += 4) {
      const k = at + i;
      s[i >> 2]! ^=
        padded[k]! | (padded[k + 1]! << 8) | (padded[k + 2]! << 16) | (padded[k + 3]! << 24);
    }
    permute(s);
  }
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = s[i >> 2]! >>> ((i & 3) * 8);
  return out;
}

/**
 * The EIP-55 spelling of a `0x` + 40-hex address (any case in, checksummed case out).
 *
 * @example
 * toChecksumAddress("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed");
 * // "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
 */
export function toChecksumAddress(address: string): string {
  const hex = address.slice(2).toLowerCase();
  const hash = keccak256(new TextEncoder().encode(hex));
  let out = "0x";
  for (let i = 0; i < hex.length; i++) {
    const nibble = (hash[i >> 1]! >> (i & 1 ? 0 : 4)) & 15;
    out += nibble >= 8 ? hex[i]!.toUpperCase() : hex[i]!;
  }
  return out;
}

/**
 * True when a `0x` + 40-hex address is written in mixed case that is not its EIP-55 checksum
 * (a typo). All-lowercase or all-uppercase hex carries no checksum, and anything that is not
 * `0x` + 40 hex is not for this check to judge (the currency's mask does): both are false.
 *
 * @example
 * hasEip55Typo("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"); // false
 * hasEip55Typo("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD"); // true
 */
export function hasEip55Typo(address: string): boolean {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return false;
  const body = address.slice(2);
  if (body === body.toLowerCase() || body === body.toUpperCase()) return false;
  return toChecksumAddress(address) !== address;
}
