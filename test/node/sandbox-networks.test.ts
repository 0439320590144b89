/**
 * The sandbox's networks: test-network token contracts only (never mainnet USDT/USDC, so a
 * wallet link pairing a test chain id with a contract cannot move real funds), and the extra
 * currency on a network a client may not know (`SANDBOX_EXTRA_CURRENCY`), listed, lockable and
 * paid at an address of the network's own shape.
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseExtraCurrency } from "../../demo/sandbox/extra-currency.ts";
import { type RunningSandbox, startSandbox } from "../../demo/sandbox/server.ts";
import { DEFAULT_OPTIONS } from "../../demo/sandbox/state.ts";
import { sandboxClient } from "./sandbox-kit.ts";

const MAINNET_TOKENS = [
  "0xdAC17F958D2ee523a2206206994597C13D831ec7",
  "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
  "0x55d398326f99059fF775485246999027B3197955",
  "0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d",
  "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
  "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
].map((c) => c.toLowerCase());

let sb: RunningSandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

async function start(extraCurrency?: string) {
  sb = await startSandbox({ port: 0, webhookUrl: null, extraCurrency });
  return sandboxClient(sb.url, DEFAULT_OPTIONS.apiKey);
}

describe("sandbox networks", () => {
  it("serves test-network token contracts (Sepolia, BSC testnet, Tron Nile, Base Sepolia), never mainnet ones", async () => {
    const api = await start();
    const { json } = await api("GET", "/currencies");
    const tokens = (json.data as { code: string; contractAddress: string | null }[]).filter(
      (c) => c.contractAddress,
    );
    expect(tokens.map((c) => c.code).sort()).toEqual(
      ["USDC_BASE", "USDC_BEP20", "USDC_ERC20", "USDT_BEP20", "USDT_ERC20", "USDT_TRC20"].sort(),
    );
    for (const t of tokens) expect(MAINNET_TOKENS).not.toContain(t.contractAddress!.toLowerCase());
    const byCode = Object.fromEntries(tokens.map((t) => [t.code, t.contractAddress]));
    expect(byCode.USDT_ERC20).toBe("0xaA8E23Fb1079EA71e0a56F48a2aA51851D8433D0");
    expect(byCode.USDT_TRC20).toBe("TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf");
    expect(byCode.USDC_BASE).toBe("0x036CbD53842c5426634e7929541eC2318f3dCF7e");
  });

  it("an extra currency on a non-EVM network: listed with its name and network, locked at a base58 address", async () => {
    const api = await start("USDT_TON:TON");
    const list = (await api("GET", "/currencies")).json.data as { code: string }[];
    expect(list).toHaveLength(12);
    const ton = (await api("GET", "/currencies?network=ton")).json.data;
    expect(ton).toEqual([
      expect.objectContaining({
        code: "USDT_TON",
        name: "Tether USD (TON)",
        network: "TON",
        contractAddress: null,
        addressMask: "^[1-9A-HJ-NP-Za-km-z]{32,44}$",
      }),
    ]);
    const created = await api("POST", "/invoice", {
      accountId: DEFAULT_OPTIONS.accountId,
      fiatCurrencyCode: "USD",
      amount: 10,
      orderId: "extra-1",
    });
    expect(created.status).toBe(201);
    const locked = await api("POST", "/x-sandbox/invoice/lock-currency", {
      accountId: DEFAULT_OPTIONS.accountId,
      id: created.json.data.id,
      cryptoCurrencyCode: "USDT_TON",
    });
    expect(locked.status).toBe(200);
    expect(locked.json.data.address).toMatch(/^[1-9A-HJ-NP-Za-km-z]{44}$/);
    // Priced as a USD stablecoin: 10 USD is 10 of it.
    expect(String(locked.json.data.cryptoAmountExpected)).toBe("10");
  });

  it("an extra EVM token: a test contract (Base Sepolia USDC) and 0x addresses", () => {
    const base = parseExtraCurrency("USDC_BASE:Base:evm");
    expect(base).toMatchObject({
      name: "USD Coin (Base)",
      network: "Base",
      tokenType: "erc20",
      contractAddress: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
      addressMask: "^0x[a-fA-F0-9]{40}$",
    });
  });

  it("a malformed spec or a code already served is an error naming the variable", async () => {
    for (const bad of ["USDC_BASE", "usdc:Base", "USDC_BASE:Base:solana", ":Base"])
      expect(() => parseExtraCurrency(bad), bad).toThrow(/SANDBOX_EXTRA_CURRENCY must look like/);
    await expect(startSandbox({ port: 0, extraCurrency: "BTC:Bitcoin" })).rejects.toThrow(
      /SANDBOX_EXTRA_CURRENCY: BTC is already/,
    );
  });
});
