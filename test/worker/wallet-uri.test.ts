/**
 * Wallet deep links: exact expected strings for BIP21, EIP-681 native and token transfers
 * (6- and 18-decimal base units), Tron, sandbox chain ids and bad input.
 */
import { describe, expect, it } from "vitest";
import type { CryptoCurrency } from "../../worker/api/contract.ts";
import { walletUri } from "../../worker/wallet/wallet-uri.ts";

type Currency = Pick<
  CryptoCurrency,
  "code" | "network" | "tokenType" | "contractAddress" | "decimalPlaces"
>;

const BTC: Currency = {
  code: "BTC",
  network: "BTC",
  tokenType: null,
  contractAddress: null,
  decimalPlaces: 8,
};
const ETH: Currency = {
  code: "ETH",
  network: "Ethereum",
  tokenType: null,
  contractAddress: null,
  decimalPlaces: 18,
};
const BNB: Currency = {
  code: "BNB",
  network: "BNB Smart Chain",
  tokenType: null,
  contractAddress: null,
  decimalPlaces: 18,
};
const USDT_ERC20: Currency = {
  code: "USDT_ERC20",
  network: "ethereum",
  tokenType: "erc20",
  contractAddress: "0xdAC17F958D2ee523a2206206994597C13D831ec7",
  decimalPlaces: 6,
};
const USDT_BEP20: Currency = {
  code: "USDT_BEP20",
  network: "BNB",
  tokenType: "bep20",
  contractAddress: "0x55d398326f99059fF775485246999027B3197955",
  decimalPlaces: 18,
};
const USDT_TRC20: Currency = {
  code: "USDT_TRC20",
  network: "Tron",
  tokenType: "trc20",
  contractAddress: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
  decimalPlaces: 6,
};

const EVM_ADDR = "0x52908400098527886E0F7030069857D2E4169EE7";
const BTC_ADDR = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";
const TRON_ADDR = "TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL";

describe("walletUri", () => {
  it("BIP21 for Bitcoin, with the decimal BTC amount", () => {
    expect(walletUri({ currency: BTC, address: BTC_ADDR, amount: "0.00123", sandbox: false })).toBe(
      `bitcoin:${BTC_ADDR}?amount=0.00123`,
    );
    expect(
      walletUri({
        currency: { ...BTC, network: "bitcoin" },
        address: BTC_ADDR,
        amount: "1.50000000",
        sandbox: true,
      }),
    ).toBe(`bitcoin:${BTC_ADDR}?amount=1.5`);
  });

  it("EIP-681 native value in wei (18 decimals), mainnet and Sepolia", () => {
    expect(
      walletUri({
        currency: ETH,
        address: EVM_ADDR,
        amount: "0.000123450000000001",
        sandbox: false,
      }),
    ).toBe(`ethereum:${EVM_ADDR}@1?value=123450000000001`);
    expect(walletUri({ currency: ETH, address: EVM_ADDR, amount: "1.5", sandbox: true })).toBe(
      `ethereum:${EVM_ADDR}@11155111?value=1500000000000000000`,
    );
  });

  it("EIP-681 native BNB on BSC (56) and BSC testnet (97)", () => {
    expect(walletUri({ currency: BNB, address: EVM_ADDR, amount: "2", sandbox: false })).toBe(
      `ethereum:${EVM_ADDR}@56?value=2000000000000000000`,
    );
    expect(
      walletUri({
        currency: { ...BNB, network: "bsc" },
        address: EVM_ADDR,
        amount: "2",
        sandbox: true,
      }),
    ).toBe(`ethereum:${EVM_ADDR}@97?value=2000000000000000000`);
  });

  it("ERC-20 transfer with 6-decimal USDT base units", () => {
    expect(
      walletUri({ currency: USDT_ERC20, address: EVM_ADDR, amount: "49.9", sandbox: false }),
    ).toBe(
      `ethereum:${USDT_ERC20.contractAddress}@1/transfer?address=${EVM_ADDR}&uint256=49900000`,
    );
  });

  it("BEP-20 transfer with 18-decimal USDT base units", () => {
    expect(
      walletUri({ currency: USDT_BEP20, address: EVM_ADDR, amount: "49.9", sandbox: false }),
    ).toBe(
      `ethereum:${USDT_BEP20.contractAddress}@56/transfer?address=${EVM_ADDR}&uint256=49900000000000000000`,
    );
    expect(
      walletUri({
        currency: USDT_BEP20,
        address: EVM_ADDR,
        amount: "0.000000000000000001",
        sandbox: true,
      }),
    ).toBe(`ethereum:${USDT_BEP20.contractAddress}@97/transfer?address=${EVM_ADDR}&uint256=1`);
  });

  it("an explicit chainId wins", () => {
    expect(
      walletUri({ currency: ETH, address: EVM_ADDR, amount: "1", sandbox: true, chainId: 5 }),
    ).toBe(`ethereum:${EVM_ADDR}@5?value=1000000000000000000`);
  });

  it("Tron: the bare address", () => {
    expect(
      walletUri({ currency: USDT_TRC20, address: TRON_ADDR, amount: "10", sandbox: false }),
    ).toBe(TRON_ADDR);
    expect(
      walletUri({
        currency: { ...USDT_TRC20, network: "TRON" },
        address: TRON_ADDR,
        amount: "10",
        sandbox: true,
      }),
    ).toBe(TRON_ADDR);
  });

  it("a zero amount omits the amount parameter", () => {
    expect(walletUri({ currency: BTC, address: BTC_ADDR, amount: "0", sandbox: false })).toBe(
      `bitcoin:${BTC_ADDR}`,
    );
    expect(
      walletUri({ currency: USDT_ERC20, address: EVM_ADDR, amount: "0", sandbox: false }),
    ).toBe(`ethereum:${USDT_ERC20.contractAddress}@1/transfer?address=${EVM_ADDR}`);
  });

  it("refuses amounts with more places than the currency instead of rounding", () => {
    expect(() =>
      walletUri({ currency: USDT_ERC20, address: EVM_ADDR, amount: "0.0000001", sandbox: false }),
    ).toThrow(RangeError);
    expect(() =>
      walletUri({ currency: BTC, address: BTC_ADDR, amount: "0.000000001", sandbox: false }),
    ).toThrow(RangeError);
  });

  it("rejects malformed amounts and addresses that could inject parameters", () => {
    expect(() =>
      walletUri({ currency: BTC, address: BTC_ADDR, amount: "1e-3", sandbox: false }),
    ).toThrow(TypeError);
    expect(() =>
      walletUri({ currency: BTC, address: `${BTC_ADDR}?amount=100`, amount: "1", sandbox: false }),
    ).toThrow(TypeError);
    expect(() =>
      walletUri({ currency: ETH, address: "0x1234", amount: "1", sandbox: false }),
    ).toThrow(TypeError);
  });
});
