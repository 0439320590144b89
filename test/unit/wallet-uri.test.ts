/**
 * Wallet deep links: exact expected strings for BIP21, EIP-681 native and token transfers
 * (6- and 18-decimal base units), EVM networks of the chain-id table (Base), no link for Tron
 * and unknown networks, sandbox chain ids with test-network contracts only, and bad input.
 */
import { describe, expect, it } from "vitest";
import type { CryptoCurrency } from "../../packages/contract/src/http-api.ts";
import { networkLabel } from "../../worker/lib/wallet/networks.ts";
import { walletUri } from "../../worker/lib/wallet/wallet-uri.ts";

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
    const TESTNET_USDT_BEP20 = {
      ...USDT_BEP20,
      contractAddress: "0x337610d27c682E347C9cD60BD4b3b107C9d34dDd",
    };
    expect(
      walletUri({
        currency: TESTNET_USDT_BEP20,
        address: EVM_ADDR,
        amount: "0.000000000000000001",
        sandbox: true,
      }),
    ).toBe(
      `ethereum:${TESTNET_USDT_BEP20.contractAddress}@97/transfer?address=${EVM_ADDR}&uint256=1`,
    );
  });

  it("an explicit chainId wins", () => {
    expect(
      walletUri({ currency: ETH, address: EVM_ADDR, amount: "1", sandbox: true, chainId: 5 }),
    ).toBe(`ethereum:${EVM_ADDR}@5?value=1000000000000000000`);
  });

  it("Tron: no payment URI, so no link (a bare address in href would be a relative URL)", () => {
    expect(
      walletUri({ currency: USDT_TRC20, address: TRON_ADDR, amount: "10", sandbox: false }),
    ).toBeNull();
    expect(
      walletUri({
        currency: { ...USDT_TRC20, network: "TRON" },
        address: TRON_ADDR,
        amount: "10",
        sandbox: true,
      }),
    ).toBeNull();
  });

  it("a network the worker does not know: no link, whatever its address looks like", () => {
    const ton: Currency = { ...USDT_TRC20, code: "TON", network: "TON", contractAddress: null };
    expect(
      walletUri({
        currency: ton,
        address: "EQD2NmD_lH5f5u1Kj3KfGyTvhZSX0Eg6qp2a5IQUKXxOG21n",
        amount: "1",
        sandbox: false,
      }),
    ).toBeNull();
  });

  it("EVM networks from the chain-id table: Base mainnet 8453, Base Sepolia 84532 in sandbox mode", () => {
    const USDC_BASE: Currency = {
      code: "USDC_BASE",
      network: "Base",
      tokenType: "erc20",
      contractAddress: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
      decimalPlaces: 6,
    };
    expect(
      walletUri({ currency: USDC_BASE, address: EVM_ADDR, amount: "2.5", sandbox: true }),
    ).toBe(
      `ethereum:${USDC_BASE.contractAddress}@84532/transfer?address=${EVM_ADDR}&uint256=2500000`,
    );
    const ETH_BASE: Currency = { ...ETH, code: "ETH_BASE", network: "base" };
    expect(walletUri({ currency: ETH_BASE, address: EVM_ADDR, amount: "1", sandbox: false })).toBe(
      `ethereum:${EVM_ADDR}@8453?value=1000000000000000000`,
    );
  });

  it("sandbox mode never links a mainnet token contract (a wallet ignoring the chain id pays for real)", () => {
    expect(
      walletUri({ currency: USDT_ERC20, address: EVM_ADDR, amount: "1", sandbox: true }),
    ).toBeNull();
    expect(
      walletUri({ currency: USDT_BEP20, address: EVM_ADDR, amount: "1", sandbox: true }),
    ).toBeNull();
    const SEPOLIA_USDT = {
      ...USDT_ERC20,
      contractAddress: "0xaA8E23Fb1079EA71e0a56F48a2aA51851D8433D0",
    };
    expect(
      walletUri({ currency: SEPOLIA_USDT, address: EVM_ADDR, amount: "1", sandbox: true }),
    ).toBe(
      `ethereum:${SEPOLIA_USDT.contractAddress}@11155111/transfer?address=${EVM_ADDR}&uint256=1000000`,
    );
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

describe("networkLabel: one display name per network", () => {
  it("every alias of a network shows as one name; an unknown network keeps the service's", () => {
    expect(["BTC", "Bitcoin"].map(networkLabel)).toEqual(["Bitcoin", "Bitcoin"]);
    expect(["BNB", "bsc", "BNB Smart Chain", "binance  smart chain"].map(networkLabel)).toEqual(
      Array(4).fill("BNB Smart Chain"),
    );
    expect(["Tron", "TRON", "trx"].map(networkLabel)).toEqual(["TRON", "TRON", "TRON"]);
    expect(networkLabel("base")).toBe("Base");
    expect(networkLabel(" Solana ")).toBe("Solana");
  });
});
