/**
 * The one address-rules module the worker and the widget share (`worker/lib/addresses/address-rules.ts`
 * and its codecs): BIP-173 / BIP-350 vectors, Bitcoin Core's base58 address vectors, mainnet vs
 * test network by mode, and one-character flips. SHA-256 for the oracle comes from
 * `node:crypto`, independent of the WebCrypto the module uses.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decodeBase58Check } from "../../worker/lib/address-codecs/base58check.ts";
import { decodeBech32, decodeSegwit } from "../../worker/lib/address-codecs/bech32.ts";
import { type AddressCurrency, checkAddress } from "../../worker/lib/addresses/address-rules.ts";

const net = (network: string): AddressCurrency => ({ network, addressMask: null });
const BTC = net("BTC");
const TRON = net("Tron");

// BIP-173 and BIP-350 "Test vectors" sections, verbatim.
const VALID_BECH32 = [
  "A12UEL5L",
  "a12uel5l",
  "an83characterlonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1tt5tgs",
  "abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw",
  "11qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqc8247j",
  "split1checkupstagehandshakeupstreamerranterredcaperred2y9e3w",
  "?1ezyfcl",
];
const VALID_BECH32M = [
  "A1LQFN3A",
  "a1lqfn3a",
  "an83characterlonghumanreadablepartthatcontainsthetheexcludedcharactersbioandnumber11sg7hg6",
  "abcdef1l7aum6echk45nj3s0wdvt2fg8x9yrzpqzd3ryx",
  "11llllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllludsr8",
  "split1checkupstagehandshakeupstreamerranterredcaperredlc445v",
  "?1v759aa",
];
const INVALID_BECH32 = [
  " 1nwldj5",
  "\x7F1axkwrx",
  "\x801eym55h",
  "an84characterslonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1569pvx",
  "pzry9x0s0muk",
  "1pzry9x0s0muk",
  "x1b4n0q5v",
  "li1dgmt3",
  "de1lg7wt\xFF",
  "A1G7SGD8",
  "10a06t8",
  "1qzzfhee",
];
const INVALID_BECH32M = [
  " 1xj0phk",
  "\x7F1g6xzxy",
  "\x801vctc34",
  "an84characterslonghumanreadablepartthatcontainsthetheexcludedcharactersbioandnumber11d6pts4",
  "qyrz8wqd2c9m",
  "1qyrz8wqd2c9m",
  "y1b0jsk6g",
  "lt1igcx5c0",
  "in1muywd",
  "mm1crxm3i",
  "au1s5cgom",
  "M1VUXWEZ",
  "16plkw9",
  "1p2gdwpf",
];
/** BIP-350's valid segwit addresses with their scriptPubKey. */
const VALID_SEGWIT: [string, string][] = [
  ["BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4", "0014751e76e8199196d454941c45d1b3a323f1433bd6"],
  [
    "tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7",
    "00201863143c14c5166804bd19203356da136c985678cd4d27a1b8c6329604903262",
  ],
  [
    "bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y",
    "5128751e76e8199196d454941c45d1b3a323f1433bd6751e76e8199196d454941c45d1b3a323f1433bd6",
  ],
  ["BC1SW50QGDZ25J", "6002751e"],
  ["bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs", "5210751e76e8199196d454941c45d1b3a323"],
  [
    "tb1qqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesrxh6hy",
    "0020000000c4a5cad46221b2a187905e5266362b99d5e91c6ce24d165dab93e86433",
  ],
  [
    "tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c",
    "5120000000c4a5cad46221b2a187905e5266362b99d5e91c6ce24d165dab93e86433",
  ],
  [
    "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0",
    "512079be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798",
  ],
];
/** BIP-350's invalid segwit addresses (the reason of each in the BIP). */
const INVALID_SEGWIT = [
  "tc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq5zuyut",
  "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd",
  "tb1z0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqglt7rf",
  "BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL",
  "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh",
  "tb1q0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq24jc47",
  "bc1p38j9r5y49hruaue7wxjce0updqjuyyx0kh56v8s25huc6995vvpql3jow4",
  "BC130XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ7ZWS8R",
  "bc1pw5dgrnzv",
  "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v8n0nx0muaewav253zgeav",
  "BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P",
  "tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq47Zagq",
  "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v07qwwzcrf",
  "tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vpggkg4j",
  "bc1gmk9yu",
];

// Bitcoin Core `src/test/data/key_io_valid.json` (addresses, by chain) and known addresses.
const BTC_MAIN = [
  "1FsSia9rv4NeEwvJ2GvXrX7LyxYspbN2mo",
  "36j4NfKv6Akva9amjWrLG6MuSQym1GuEmm",
  "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2",
  "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy",
  "bc1qvyq0cc6rahyvsazfdje0twl7ez82ndmuac2lhv",
  "bc1qyucykdlhp62tezs0hagqury402qwhk589q80tqs5myh3rxq34nwqhkdhv7",
  "bc1p83n3au0rjylefxq2nc2xh2y4jzz4pm6zxj4mw5pagdjjr2a9f36s6jjnnu",
];
const BTC_TEST = [
  "mzK2FFDEhxqHcmrJw1ysqFkVyhUULo45hZ", // testnet4
  "2NC2hEhe28ULKAJkW5MjZ3jtTMJdvXmByvK",
  "mww4LvqtTMKvmeQvizPz2EQv26xTneWrbg", // signet
  "2MxFajLApXpYk4VodBSZSt7rw8y4ryABkfA", // regtest
  "tb1qcrh3yqn4nlleplcez2yndq2ry8h9ncg3qh7n54",
  "tb1p35n52jy6xkm4wd905tdy8qtagrn73kqdz73xe4zxpvq9t3fp50aqk3s6gz",
  "bcrt1qdavt4j2sd7dlhqsavtnfxvzppw6k7qy97tmnu9",
];
/** Private keys (WIF) from the same file: valid base58check, never an address to pay. */
const WIF = [
  "5JuW2AMDYu4xVwRG9DZW18VbzQrGcd5RCgb99sS6ehJsNQXu5b9",
  "L5nJeqKmpHp4P7F8ZYyjwc5a7P4d8EabuGAzfGJk7yC1BJyzNaEd",
  "cV83kKisF3RQSvXbUCm9ox3kaz5JjEUBWcx8tNydfGJcyeUxuH47",
];

const B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const sha256 = (b: Uint8Array) => new Uint8Array(createHash("sha256").update(b).digest());

/** Oracle: base58check of version ‖ 20-byte hash, with node:crypto's SHA-256. */
function base58check(version: number, hash = new Uint8Array(20).fill(7)): string {
  const payload = new Uint8Array([version, ...hash]);
  const all = new Uint8Array([...payload, ...sha256(sha256(payload)).slice(0, 4)]);
  let n = 0n;
  for (const b of all) n = n * 256n + BigInt(b);
  let out = "";
  for (; n > 0n; n /= 58n) out = B58[Number(n % 58n)] + out;
  for (const b of all) {
    if (b !== 0) break;
    out = `1${out}`;
  }
  return out;
}

/** Flips one character the way BIP-173's reference tests do (char code xor 1). */
const flip = (s: string, at: number) =>
  s.slice(0, at) + String.fromCharCode(s.charCodeAt(at) ^ 1) + s.slice(at + 1);

describe("bech32 / bech32m checksums (BIP-173, BIP-350 vectors)", () => {
  it("valid strings decode with their encoding; one flipped data character breaks each", () => {
    for (const [list, encoding] of [
      [VALID_BECH32, "bech32"],
      [VALID_BECH32M, "bech32m"],
    ] as const) {
      for (const s of list) {
        expect([s, decodeBech32(s)?.encoding]).toEqual([s, encoding]);
        expect([s, decodeBech32(flip(s, s.lastIndexOf("1") + 1))]).toEqual([s, null]);
      }
    }
  });

  it("invalid strings never decode as the encoding they were made for", () => {
    for (const s of INVALID_BECH32)
      expect([s, decodeBech32(s)?.encoding]).not.toEqual([s, "bech32"]);
    for (const s of INVALID_BECH32M)
      expect([s, decodeBech32(s)?.encoding]).not.toEqual([s, "bech32m"]);
  });

  it("valid segwit addresses decode to BIP-350's scriptPubKey", () => {
    for (const [address, script] of VALID_SEGWIT) {
      const decoded = decodeSegwit(address);
      if (typeof decoded === "string") throw new Error(`${address}: ${decoded}`);
      const { version, program } = decoded;
      const bytes = [version ? version + 0x50 : 0, program.length, ...program];
      expect([address, Buffer.from(bytes).toString("hex")]).toEqual([address, script]);
    }
  });

  it("invalid segwit addresses are refused, by checksum or by segwit rule", async () => {
    for (const address of INVALID_SEGWIT) {
      const verdict = decodeSegwit(address);
      // The first vector's only fault is its human-readable part (`tc`), which is the
      // network rules' to refuse (below); every other one fails decoding itself.
      const refused = typeof verdict === "string" || !["bc", "tb"].includes(verdict.hrp);
      expect([address, refused]).toEqual([address, true]);
    }
    expect(await checkAddress(BTC, INVALID_SEGWIT[0]!, true)).toBe("invalid");
    // A wrong checksum variant is a segwit-rule failure, not a typo: the checksum itself holds.
    expect(decodeSegwit("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh")).toBe("invalid");
    expect(decodeSegwit("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5")).toBe("checksum");
  });
});

describe("base58check", () => {
  it("decodes Bitcoin Core's vectors to version + 20 bytes, and refuses a changed last character", async () => {
    for (const address of [...BTC_MAIN, ...BTC_TEST].filter((a) => !/^(bc|tb|bcrt)1/.test(a))) {
      const payload = await decodeBase58Check(address);
      expect([address, payload instanceof Uint8Array && payload.length]).toEqual([address, 21]);
      const last = address.at(-1)!;
      const changed = address.slice(0, -1) + (last === "z" ? "y" : B58[B58.indexOf(last) + 1]);
      expect([changed, await decodeBase58Check(changed)]).toEqual([changed, "checksum"]);
    }
  });

  it("characters outside the alphabet and strings too short for a checksum are invalid", async () => {
    expect(await decodeBase58Check("1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN0")).toBe("invalid");
    expect(await decodeBase58Check("1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVNl")).toBe("invalid");
    expect(await decodeBase58Check("1111")).toBe("invalid");
  });
});

describe("checkAddress: the network and the mode decide", () => {
  it("Bitcoin mainnet addresses: ok in production, `network` in sandbox mode (and the reverse)", async () => {
    for (const address of BTC_MAIN) {
      expect([address, await checkAddress(BTC, address, false)]).toEqual([address, "ok"]);
      expect([address, await checkAddress(BTC, address, true)]).toEqual([address, "network"]);
    }
    for (const address of BTC_TEST) {
      expect([address, await checkAddress(BTC, address, true)]).toEqual([address, "ok"]);
      expect([address, await checkAddress(BTC, address, false)]).toEqual([address, "network"]);
    }
  });

  it("the segwit rules and base58check apply through checkAddress", async () => {
    for (const address of INVALID_SEGWIT.filter((a) => /^(bc|tb)1/i.test(a))) {
      for (const sandbox of [true, false]) {
        expect([address, await checkAddress(BTC, address, sandbox)]).not.toEqual([address, "ok"]);
      }
    }
    // Mixed case breaks bech32; a private key is valid base58check but no address.
    expect(
      await checkAddress(
        BTC,
        "tb1qRP33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7",
        true,
      ),
    ).toBe("checksum");
    for (const key of WIF) {
      for (const sandbox of [true, false])
        expect([key, await checkAddress(BTC, key, sandbox)]).toEqual([key, "invalid"]);
    }
    // Another chain's version byte is not a Bitcoin address in either mode.
    expect(await checkAddress(BTC, "LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9", false)).toBe("invalid");
  });

  it("every one-character substitution of a valid address is refused", async () => {
    const cases: [AddressCurrency, string, boolean, string][] = [
      [BTC, "tb1qcrh3yqn4nlleplcez2yndq2ry8h9ncg3qh7n54", true, "qpzry9x8gf2tvdw0s3jn54khce6mua7l"],
      [BTC, "mzK2FFDEhxqHcmrJw1ysqFkVyhUULo45hZ", true, B58],
      [TRON, "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7", false, B58],
    ];
    let tried = 0;
    for (const [currency, address, sandbox, alphabet] of cases) {
      for (let at = 0; at < address.length; at++) {
        for (const c of alphabet) {
          if (c === address[at]) continue;
          const changed = address.slice(0, at) + c + address.slice(at + 1);
          const verdict = await checkAddress(currency, changed, sandbox);
          if (verdict === "ok") throw new Error(`${changed} (from ${address}) passed`);
          tried++;
        }
      }
    }
    expect(tried).toBeGreaterThan(3000);
  });

  it("Litecoin and Dogecoin by version byte, Tron the same in both modes", async () => {
    const LTC = net("Litecoin");
    const DOGE = net("Dogecoin");
    for (const [currency, address, sandboxVerdict, productionVerdict] of [
      [LTC, "LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9", "network", "ok"],
      [LTC, "LM2WMpR1Rp6j3Sa59cMXMs1SPzj9eXpGc1", "network", "ok"],
      [LTC, base58check(0x3a), "ok", "network"], // Q…: Litecoin testnet P2SH
      [DOGE, "DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L", "network", "ok"],
      [DOGE, base58check(0x71), "ok", "network"], // n…: Dogecoin testnet P2PKH
      [DOGE, base58check(0x00), "invalid", "invalid"], // a Bitcoin P2PKH
      [TRON, "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7", "ok", "ok"],
      [TRON, base58check(0x41, new Uint8Array(20)), "ok", "ok"],
      [TRON, "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", "invalid", "invalid"],
    ] as const) {
      expect([address, await checkAddress(currency, address, true)]).toEqual([
        address,
        sandboxVerdict,
      ]);
      expect([address, await checkAddress(currency, address, false)]).toEqual([
        address,
        productionVerdict,
      ]);
    }
  });

  it("EVM networks need 0x + 40 hex whatever the mask, and the same address on every chain", async () => {
    const ETH = net("Ethereum");
    for (const sandbox of [true, false]) {
      expect(await checkAddress(ETH, "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", sandbox)).toBe(
        "ok",
      );
      expect(await checkAddress(ETH, "0x5aAeb6053F3E94C9b9A09f33669435E7EF1BeAed", sandbox)).toBe(
        "checksum",
      );
      expect(await checkAddress(ETH, "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7", sandbox)).toBe(
        "invalid",
      );
    }
  });

  it("the mask refuses first; other networks get shape and mask only", async () => {
    const masked = { network: "BTC", addressMask: "^tb1" };
    expect(await checkAddress(masked, "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", false)).toBe(
      "invalid",
    );
    const sol = { network: "Solana", addressMask: "^[1-9A-HJ-NP-Za-km-z]{32,44}$" };
    expect(await checkAddress(sol, "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU8", true)).toBe("ok");
    expect(await checkAddress(net("Other"), "has spaces in the middle", true)).toBe("invalid");
    expect(await checkAddress(net("Other"), "short", true)).toBe("invalid");
  });
});
