/**
 * @module
 * THE refund- and payout-address rules, one module for the worker and the widget: the worker
 * refuses with them (`address-guard.ts`: shoppers' refund addresses, merchants' payouts) and
 * the widget bundles this very module into its on-demand `/address.js` to say the same thing
 * while the shopper types.
 *
 * In order: a sane shape; the service's `addressMask`; then, chosen by the currency's
 * network (never by the address's look: a Solana address may start with `T` or `1` and has no
 * checksum), the checksum and the network the address belongs to —
 * - Bitcoin, Litecoin: bech32 (segwit v0) / bech32m (v1+, taproot) by human-readable part, or
 *   base58check by version byte;
 * - Dogecoin: base58check by version byte;
 * - Tron: base58check, version 0x41 (its test networks use the same addresses);
 * - Ethereum, BNB Smart Chain: `0x` + 40 hex, EIP-55 when written in mixed case (all-lower or
 *   all-upper case carries no checksum); the same address on every chain, test or main;
 * - any other network: shape and mask only.
 *
 * Sandbox mode means test networks only: a mainnet address there (or a test-network address in
 * production) is `network`, because coins sent across would be lost.
 *
 * Invariants: pure (no I/O, no worker-only imports), so both sides judge alike; async only
 * because base58check hashes with WebCrypto.
 */

import type { CryptoCurrency } from "../../../packages/contract/src/http-api.ts";
import { decodeBase58Check } from "../address-codecs/base58check.ts";
import { decodeSegwit } from "../address-codecs/bech32.ts";
import { hasEip55Typo } from "../address-codecs/eip55.ts";
import { isEvmNetwork, type NetworkKind, networkKind } from "../wallet/networks.ts";

/**
 * `ok`; `invalid` (not an address of this currency); `checksum` (the right shape with a typo
 * inside); `network` (a valid address of the other kind of network: mainnet in sandbox mode,
 * a test network in production).
 */
export type AddressVerdict = "ok" | "invalid" | "checksum" | "network";

/** The parts of a currency the rules read. */
export type AddressCurrency = Pick<CryptoCurrency, "network" | "addressMask">;

/** Per network: [mainnet, test networks] human-readable parts and base58check versions. */
interface Encodings {
  hrp: [main: string[], test: string[]];
  version: [main: number[], test: number[]];
}

// Version bytes and prefixes from each chain's parameters (Bitcoin Core `chainparams.cpp`:
// testnet, signet and regtest share 0x6f/0xc4; regtest segwit is `bcrt`).
const ENCODINGS: Partial<Record<NetworkKind, Encodings>> = {
  bitcoin: {
    hrp: [["bc"], ["tb", "bcrt"]],
    version: [
      [0x00, 0x05],
      [0x6f, 0xc4],
    ],
  },
  litecoin: {
    hrp: [["ltc"], ["tltc", "rltc"]],
    version: [
      [0x30, 0x32, 0x05],
      [0x6f, 0x3a, 0xc4],
    ],
  },
  dogecoin: {
    hrp: [[], []],
    version: [
      [0x1e, 0x16],
      [0x71, 0xc4],
    ],
  },
  tron: { hrp: [[], []], version: [[0x41], [0x41]] },
};

/** Whether `found` is this mode's (`ok`), the other mode's (`network`), or neither. */
function side(found: number | string, [main, test]: [unknown[], unknown[]], sandbox: boolean) {
  const [mine, other] = sandbox ? [test, main] : [main, test];
  return mine.includes(found) ? "ok" : other.includes(found) ? "network" : "invalid";
}

async function checkEncoded(address: string, rules: Encodings, sandbox: boolean) {
  const lower = address.toLowerCase();
  const hrps = [...rules.hrp[0], ...rules.hrp[1]];
  if (hrps.some((hrp) => lower.startsWith(`${hrp}1`))) {
    const segwit = decodeSegwit(address);
    return typeof segwit === "string" ? segwit : side(segwit.hrp, rules.hrp, sandbox);
  }
  const payload = await decodeBase58Check(address);
  if (typeof payload === "string") return payload;
  // Version byte + a 20-byte hash: anything longer (a WIF private key, an extended key) is
  // base58check too, but never an address to pay.
  if (payload.length !== 21) return "invalid";
  return side(payload[0]!, rules.version, sandbox);
}

/**
 * Judges an address (surrounding blanks ignored) for a currency, in sandbox or production.
 *
 * @example
 * await checkAddress({ network: "BTC", addressMask: null }, "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx", true); // "ok"
 * await checkAddress({ network: "BTC", addressMask: null }, "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", true); // "network"
 * await checkAddress({ network: "Tron", addressMask: null }, "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU8", false); // "checksum"
 */
export async function checkAddress(
  currency: AddressCurrency,
  raw: string,
  sandbox: boolean,
): Promise<AddressVerdict> {
  const address = raw.trim();
  if (!/^[A-Za-z0-9:]{10,128}$/.test(address)) return "invalid";
  if (currency.addressMask) {
    let mask: RegExp | null = null;
    try {
      mask = new RegExp(currency.addressMask);
    } catch {
      // A mask that does not compile is the service's problem, not the shopper's: the shape
      // and the network's own rules still apply.
    }
    if (mask && !mask.test(address)) return "invalid";
  }
  // Every EVM network of the table uses EIP-55; other EVM chains (RSK: EIP-1191) are not in it.
  if (isEvmNetwork(currency.network)) {
    if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return "invalid";
    return hasEip55Typo(address) ? "checksum" : "ok";
  }
  const kind = networkKind(currency.network);
  const rules = kind ? ENCODINGS[kind] : undefined;
  return rules ? checkEncoded(address, rules, sandbox) : "ok";
}
