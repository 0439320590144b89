/**
 * @module
 * Refund-address checks in the browser: the service's `addressMask` first, then a checksum
 * where it is cheap — bech32/bech32m for `bc1…`/`tb1…`, base58check for Tron `T…` and legacy
 * Bitcoin, EIP-55 for mixed-case Ethereum and BNB Smart Chain `0x…` (all-lower or all-upper
 * case carries no checksum and passes). All of it ships in the on-demand `/address.js`.
 * The worker checks the mask and EIP-55 again; these checks only catch typos early.
 *
 * Invariants: the shape check is the worker's (`worker/checkout/address-rules.ts`), so the
 * widget never refuses what the worker would take; a checksum runs only on the networks whose
 * addresses always carry one (chosen by the currency's network, not by the first letter: a
 * Solana address may start with `T` or `1` and has no checksum).
 */
import type { CryptoCurrency } from "../worker/api/contract.ts";
import { hasEip55Typo } from "../worker/crypto/eip55.ts";
import { isEvmNetwork } from "../worker/wallet/networks.ts";

/** `ok`, `invalid` (shape), or `checksum` (right shape, a typo inside). */
export type AddressVerdict = "ok" | "invalid" | "checksum";

const BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

function bech32Valid(address: string): boolean {
  if (address !== address.toLowerCase() && address !== address.toUpperCase()) return false;
  const lower = address.toLowerCase();
  const sep = lower.lastIndexOf("1");
  if (sep < 1 || lower.length - sep < 7) return false;
  const values = [...lower.slice(0, sep)].map((c) => c.charCodeAt(0) >> 5);
  values.push(0, ...[...lower.slice(0, sep)].map((c) => c.charCodeAt(0) & 31));
  for (const c of lower.slice(sep + 1)) {
    const v = BECH32.indexOf(c);
    if (v < 0) return false;
    values.push(v);
  }
  let chk = 1;
  const GEN = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  for (const v of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= GEN[i]!;
  }
  // bech32 (segwit v0) or bech32m (taproot and later).
  return chk === 1 || chk === 0x2bc830a3;
}

async function base58checkValid(address: string): Promise<boolean> {
  let n = 0n;
  for (const c of address) {
    const v = BASE58.indexOf(c);
    if (v < 0) return false;
    n = n * 58n + BigInt(v);
  }
  const bytes: number[] = [];
  while (n > 0n) {
    bytes.unshift(Number(n % 256n));
    n /= 256n;
  }
  for (const c of address) {
    if (c !== "1") break;
    bytes.unshift(0);
  }
  if (bytes.length < 5) return false;
  // No WebCrypto (an http: page): the checksum cannot be checked here; the worker checks again.
  if (!crypto.subtle) return true;
  const payload = new Uint8Array(bytes.slice(0, -4));
  const once = await crypto.subtle.digest("SHA-256", payload);
  const twice = new Uint8Array(await crypto.subtle.digest("SHA-256", once));
  return bytes.slice(-4).every((b, i) => b === twice[i]);
}

/**
 * Checks an address for a currency.
 *
 * @example
 * await checkAddress(usdtTrc20, "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7") // "ok"
 */
export async function checkAddress(currency: CryptoCurrency, raw: string): Promise<AddressVerdict> {
  const address = raw.trim();
  if (!/^[A-Za-z0-9:]{10,128}$/.test(address)) return "invalid";
  if (currency.addressMask) {
    try {
      if (!new RegExp(currency.addressMask).test(address)) return "invalid";
    } catch {
      // A mask the browser cannot compile is the service's problem; the worker checks again.
    }
  }
  const net = currency.network;
  // Bitcoin-family networks: bech32 (segwit) or base58check (legacy, P2SH); Tron: base58check.
  if (/^(btc|bitcoin|ltc|litecoin)$/i.test(net) && /^(bc|tb|bcrt|ltc|tltc)1/i.test(address))
    return bech32Valid(address) ? "ok" : "checksum";
  if (/^(btc|bitcoin|ltc|litecoin|doge|dogecoin|tron|trx)$/i.test(net))
    return (await base58checkValid(address)) ? "ok" : "checksum";
  // EVM: the worker's own network table and EIP-55 code (bundled into `/address.js`); other
  // EVM chains may use another checksum (RSK: EIP-1191), so only the table's are checked.
  if (isEvmNetwork(net)) return hasEip55Typo(address) ? "checksum" : "ok";
  return "ok";
}
