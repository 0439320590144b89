/**
 * Keccak-256 and EIP-55 (`worker/lib/address-codecs/eip55.ts`, which the widget's `/address.js` bundles
 * too): the official Keccak vectors, SHA3-256 (same sponge, other padding) against
 * `node:crypto` across every block boundary, EIP-55's own examples; and the widget checking it
 * on exactly the worker's Ethereum and BNB Smart Chain names.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import * as impl from "../../worker/lib/address-codecs/eip55.ts";
import { checkAddress } from "../../worker/lib/addresses/address-rules.ts";
import { isEvmNetwork } from "../../worker/lib/wallet/networks.ts";
import { CURRENCIES } from "./fakes.ts";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const ascii = (text: string) => new TextEncoder().encode(text);

/** The checksummed examples of EIP-55 itself. */
const EIP55 = [
  "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
  "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
  "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
  "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
];

/** Flips the case of the `n`-th letter of the hex part. */
function flipLetter(address: string, n: number): string {
  const at = [...address].findIndex((c, i) => i > 1 && /[a-f]/i.test(c) && n-- === 0);
  const c = address[at]!;
  const flipped = c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
  return address.slice(0, at) + flipped + address.slice(at + 1);
}

describe("keccak-256 and EIP-55", () => {
  it("keccak256: the official vectors (Ethereum's Keccak, not SHA3)", () => {
    expect(hex(impl.keccak256(new Uint8Array(0)))).toBe(
      "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470",
    );
    expect(hex(impl.keccak256(ascii("abc")))).toBe(
      "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45",
    );
    expect(hex(impl.keccak256(ascii("The quick brown fox jumps over the lazy dog")))).toBe(
      "4d741b6f1eb29cb2a9b9911c82f56fa8d73b04959d3d9d222895df6c0b28aa15",
    );
  });

  it("the same sponge with SHA3 padding equals node's sha3-256 at every length up to 3 blocks", () => {
    for (let n = 0; n <= 3 * 136 + 1; n++) {
      const data = Uint8Array.from({ length: n }, (_, i) => (i * 131 + n * 7) & 0xff);
      expect([n, hex(impl.keccak256(data, 0x06))]).toEqual([
        n,
        createHash("sha3-256").update(data).digest("hex"),
      ]);
    }
  });

  it.each(EIP55)("EIP-55 example %s: checksummed from any case, no typo", (address) => {
    expect(impl.toChecksumAddress(address.toLowerCase())).toBe(address);
    expect(impl.toChecksumAddress(`0x${address.slice(2).toUpperCase()}`)).toBe(address);
    expect(impl.hasEip55Typo(address)).toBe(false);
  });

  it.each(EIP55)("EIP-55 example %s: any one letter's case flipped is a typo", (address) => {
    const letters = [...address.slice(2)].filter((c) => /[a-f]/i.test(c)).length;
    for (let n = 0; n < letters; n++) expect(impl.hasEip55Typo(flipLetter(address, n))).toBe(true);
  });

  it("no checksum to check: all lowercase, all uppercase, or not 0x + 40 hex (the mask decides)", () => {
    for (const address of EIP55) {
      expect(impl.hasEip55Typo(address.toLowerCase())).toBe(false);
      expect(impl.hasEip55Typo(`0x${address.slice(2).toUpperCase()}`)).toBe(false);
    }
    expect(impl.hasEip55Typo("0x52908400098527886E0F7030069857D2E4169EE7")).toBe(false);
    expect(impl.hasEip55Typo("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe")).toBe(false);
    expect(impl.hasEip55Typo("TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7")).toBe(false);
  });
});

describe("the widget's refund-address check", () => {
  it("the widget checks EIP-55 on exactly the worker's EVM network names", async () => {
    const eth = CURRENCIES.find((c) => c.code === "ETH")!;
    const typo = "0x5aAeb6053F3E94C9b9A09f33669435E7EF1BeAed";
    const evmNames = ["Ethereum", "ETH", "erc20", "BNB", "bsc", "BEP20", "BNB Smart Chain"];
    const newer = ["Base", "Polygon", "Arbitrum One", "Optimism", "Avalanche"];
    const spelledOddly = ["bnb  chain", " Binance Smart Chain ", "BASE"];
    // RSK uses EIP-1191, not EIP-55; Solana is no EVM chain.
    const others = ["RSK", "Solana"];
    for (const network of [...evmNames, ...newer, ...spelledOddly, ...others]) {
      const evm = isEvmNetwork(network);
      expect([network, evm]).toEqual([network, !others.includes(network)]);
      const verdict = await checkAddress({ ...eth, network }, typo, false);
      expect([network, verdict]).toEqual([network, evm ? "checksum" : "ok"]);
    }
  });
});
