/**
 * The widget's small parts on their own: amount formatting across 0–18 decimals, the address
 * rules as the widget calls them per network, and the live-status fallback to polling.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { countdown, formatCrypto, formatFiat } from "../../widget/format.ts";
import { follow, POLL_MS } from "../../widget/live.ts";
import { checkAddress } from "../../worker/lib/addresses/address-rules.ts";
import { CURRENCIES, snapshot } from "./fakes.ts";

const [btc, usdt, eth] = CURRENCIES as [
  (typeof CURRENCIES)[0],
  (typeof CURRENCIES)[0],
  (typeof CURRENCIES)[0],
];
const usdcErc20 = { ...eth, code: "USDC_ERC20", tokenType: "erc20" };
const bsc = { ...eth, code: "USDT_BEP20", network: "BNB", tokenType: "bep20" };
const bscLong = { ...bsc, code: "BNB", network: "BNB Smart Chain", tokenType: null };
const rsk = { ...eth, code: "RBTC", network: "RSK" };

describe("amount formatting is exact", () => {
  it.each([
    [0, "1000", "1,000"],
    [2, "49.9", "49.9"],
    [6, "12.345678", "12.345678"],
    [8, "0.00076770", "0.0007677"],
    [18, "0.000000000000000001", "0.000000000000000001"],
    [18, "123456789.123456789012345678", "123,456,789.123456789012345678"],
  ])("decimalPlaces %i: %s → %s", (dp, amount, shown) => {
    expect(formatCrypto(amount, dp, "en")).toBe(shown);
  });

  it("never rounds, even when the string carries more digits than decimalPlaces says", () => {
    expect(formatCrypto("0.123456789", 6, "en")).toBe("0.123456789");
    expect(formatCrypto("1.999999999999999999", 2, "en")).toBe("1.999999999999999999");
  });

  it("uses the shopper's decimal separator (de: comma, digits unchanged)", () => {
    expect(formatCrypto("0.000000000000000001", 18, "de")).toBe("0,000000000000000001");
    expect(formatCrypto("1234.5", 8, "de")).toBe("1.234,5");
  });

  it("fiat with the fiat's decimal places, in the shopper's locale", () => {
    expect(formatFiat("49.9", "USD", 2, "en")).toBe("$49.90");
    expect(formatFiat("1234.5", "EUR", 2, "de")).toBe("1.234,50\u00a0€");
    expect(formatFiat("1000", "JPY", 0, "en")).toBe("¥1,000");
  });

  it("countdown as m:ss, null once past", () => {
    const now = Date.parse("2026-11-22T10:00:00Z");
    expect(countdown("2026-11-22T10:14:05Z", now)).toBe("14:05");
    expect(countdown("2026-11-22T11:00:01Z", now)).toBe("1:00:01");
    expect(countdown("2026-11-22T09:59:59Z", now)).toBeNull();
  });
});

describe("refund address checks (mask + checksum)", () => {
  it.each([
    [btc, "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", "ok"],
    [btc, "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx", "ok"],
    [btc, "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5", "checksum"],
    [btc, "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", "ok"],
    [btc, "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3", "checksum"],
    [btc, "0x52908400098527886E0F7030069857D2E4169EE7", "invalid"],
    [usdt, "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7", "ok"],
    [usdt, "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU8", "checksum"],
    [usdt, "TLa2f6VPqDgRE67v", "invalid"],
    [eth, "0x52908400098527886E0F7030069857D2E4169EE7", "ok"],
    [eth, "0x52908400098527886E0F7030069857D2E4169EE", "invalid"],
    [eth, "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7", "invalid"],
    // A real testnet P2WSH (BIP-173) and a taproot address (bech32m, BIP-350).
    [btc, "tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7", "ok"],
    [btc, "tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k8", "checksum"],
    [btc, "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0", "ok"],
    [btc, "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj1", "checksum"],
    // Mixed case breaks bech32 (and a legacy address with one letter changed breaks base58check).
    [btc, "tb1qRP33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7", "checksum"],
    [btc, "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNvN2", "checksum"],
    [usdt, "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7 ", "ok"],
    // EVM: all-lowercase or all-uppercase hex carries no checksum (the mask decides)…
    [eth, "0x52908400098527886e0f7030069857d2e4169ee7", "ok"],
    [eth, "0x52908400098527886E0F7030069857D2E4169EG7", "invalid"],
    [bsc, "0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359", "ok"],
    [bsc, "0xFB6916095CA1DF60BB79CE92CE3EA74C37C5D359", "ok"],
    // …mixed case must be the EIP-55 checksum: one letter's case flipped is a typo.
    [eth, "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "ok"],
    [eth, "0x5aAeb6053F3E94C9b9A09f33669435E7EF1BeAed", "checksum"],
    [eth, "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD", "checksum"],
    [usdcErc20, "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb", "ok"],
    [usdcErc20, "0xd1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb", "checksum"],
    [bsc, "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359", "ok"],
    [bsc, "0xfB6916095ca1dF60bB79Ce92cE3Ea74c37c5d359", "checksum"],
    [bscLong, "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB", "ok"],
    [bscLong, "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6Fb", "checksum"],
    // Another EVM chain may checksum differently (RSK: EIP-1191): the mask only there.
    [rsk, "0x5aAeb6053F3E94C9b9A09f33669435E7EF1BeAed", "ok"],
  ])("%s: %s → %s", async (currency, address, verdict) => {
    // Each address is judged in the mode its network belongs to (test networks in sandbox mode).
    const sandbox = /^(tb1|[mn2])/i.test(address);
    expect(await checkAddress(currency, address, sandbox)).toBe(verdict);
  });

  it("checksums only on networks that have them: a Solana address starting with T is fine", async () => {
    const sol = {
      ...eth,
      code: "SOL",
      network: "Solana",
      addressMask: "^[1-9A-HJ-NP-Za-km-z]{32,44}$",
    };
    // The same 34 base58 characters fail Tron's base58check but are a valid Solana shape.
    expect(await checkAddress(usdt, "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU8", false)).toBe("checksum");
    expect(await checkAddress(sol, "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU8", false)).toBe("ok");
    expect(await checkAddress(sol, "0x52908400098527886E0F7030069857D2E4169EE7", false)).toBe(
      "invalid",
    );
  });

  it("a mask the browser cannot compile is skipped (the worker checks again); the shape still applies", async () => {
    const odd = { ...eth, network: "Other", addressMask: "^(unclosed" };
    expect(
      await checkAddress(odd, "bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a", false),
    ).toBe("ok");
    expect(await checkAddress(odd, "short", false)).toBe("invalid");
    expect(await checkAddress(odd, "has spaces in the middle of it", false)).toBe("invalid");
  });
});

describe("live status fallback", () => {
  const fatal = () => {
    throw new Error("no failure here is final");
  };
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("polls GET /v1/checkouts/:id when EventSource is missing, and stops at a final snapshot", async () => {
    vi.useFakeTimers();
    vi.stubGlobal("EventSource", undefined);
    const seen: number[] = [];
    let n = 1;
    const poll = vi.fn(async () => {
      n += 1;
      return snapshot({ seq: n, final: n >= 3 });
    });
    follow("https://x/events", poll, (s) => seen.push(s.seq), fatal);
    await vi.advanceTimersByTimeAsync(POLL_MS);
    await vi.advanceTimersByTimeAsync(POLL_MS);
    await vi.advanceTimersByTimeAsync(POLL_MS * 3);
    expect(seen).toEqual([2, 3]);
    expect(poll).toHaveBeenCalledTimes(2);
  });

  it("switches to polling after three stream errors without a message", async () => {
    vi.useFakeTimers();
    const sources: { onerror: (() => void) | null; closed: boolean }[] = [];
    vi.stubGlobal(
      "EventSource",
      class {
        onerror: (() => void) | null = null;
        closed = false;
        constructor() {
          sources.push(this);
        }
        addEventListener() {}
        close() {
          this.closed = true;
        }
      },
    );
    const poll = vi.fn(async () => snapshot({ seq: 7, final: true }));
    follow("https://x/events", poll, () => {}, fatal);
    sources[0]!.onerror?.();
    sources[0]!.onerror?.();
    await vi.advanceTimersByTimeAsync(POLL_MS);
    expect(poll).not.toHaveBeenCalled();
    sources[0]!.onerror?.();
    expect(sources[0]!.closed).toBe(true);
    await vi.advanceTimersByTimeAsync(POLL_MS);
    expect(poll).toHaveBeenCalledTimes(1);
  });
});
