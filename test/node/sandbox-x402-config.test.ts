/**
 * The x402 facilitator's configuration and controls: `SANDBOX_X402_WALLETS` (default: the demo
 * wallet; an invalid address is an error naming the variable, at startup and from code) and
 * `SANDBOX_X402_CONFIRM_MS` through the one env → options mapping; the registered wallets are
 * what verify accepts; the /sandbox/x402 helpers (setup, payer balances as exact decimals);
 * the Base currencies in the default catalogue.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { createSandbox } from "../../demo/sandbox/app.ts";
import { optionsFromEnv } from "../../demo/sandbox/env.ts";
import {
  DEMO_X402_WALLET,
  FACILITATOR_ADDRESS,
  parseX402Wallets,
} from "../../demo/sandbox/x402-wallets.ts";
import { useSandbox } from "./sandbox-kit.ts";
import { facilitatorBody, newPayer, requirements, signedPayment } from "./sandbox-x402-kit.ts";

const API_KEY = "sk_x402_config";
const ACCOUNT = "55555555-5555-4555-8555-555555555555";
const REGISTERED = "0x52908400098527886E0F7030069857D2E4169EE7";
const { sb, api } = useSandbox(API_KEY, ACCOUNT, {
  x402Wallets: [REGISTERED.toLowerCase()],
});

async function admin(method: string, path: string, body?: unknown) {
  const res = await fetch(`${sb.url}${path}`, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

describe("SANDBOX_X402_WALLETS and SANDBOX_X402_CONFIRM_MS", () => {
  it("default to the demo wallet and 3 s", () => {
    expect(optionsFromEnv({})).toMatchObject({
      x402Wallets: ["0x5A4Db0c0FfEE000000000000000000000000d3e0"],
      x402ConfirmMs: 3000,
    });
    expect(DEMO_X402_WALLET).toBe("0x5A4Db0c0FfEE000000000000000000000000d3e0");
  });

  it("take comma-separated addresses (lowercase, uppercase hex or valid EIP-55), kept EIP-55", () => {
    expect(
      optionsFromEnv({
        SANDBOX_X402_WALLETS:
          "0x52908400098527886E0F7030069857D2E4169EE7, 0x8617e340b3d01fa5f11f306f4090fd50e238070d,0xDE709F2102306220921060314715629080E2FB77",
        SANDBOX_X402_CONFIRM_MS: "0",
      }),
    ).toMatchObject({
      x402Wallets: [
        "0x52908400098527886E0F7030069857D2E4169EE7",
        "0x8617E340B3D01FA5F11F306F4090FD50E238070D",
        "0xde709f2102306220921060314715629080e2fb77",
      ],
      x402ConfirmMs: 0,
    });
  });

  it("an invalid wallet or delay is an error naming the variable", () => {
    for (const bad of [
      "0x123",
      "52908400098527886E0F7030069857D2E4169EE7",
      // One character's case flipped: not its EIP-55 checksum.
      "0x52908400098527886E0F7030069857D2E4169eE7",
      "0x5290840009852788 6E0F7030069857D2E4169EE7",
      "0x52908400098527886E0F7030069857D2E4169EE7,",
      "not an address",
    ]) {
      expect(() => optionsFromEnv({ SANDBOX_X402_WALLETS: bad }), bad).toThrow(
        /^SANDBOX_X402_WALLETS must/,
      );
    }
    expect(() => parseX402Wallets(Array(33).fill(DEMO_X402_WALLET).join(","))).toThrow(
      /SANDBOX_X402_WALLETS must name 1 to 32 wallets/,
    );
    for (const bad of ["-1", "600001", "1.5", "soon", "1e3"]) {
      expect(() => optionsFromEnv({ SANDBOX_X402_CONFIRM_MS: bad }), bad).toThrow(
        /SANDBOX_X402_CONFIRM_MS must be a whole number of milliseconds/,
      );
    }
  });

  it("from code as well: createSandbox refuses a bad wallet, and keeps good ones EIP-55", () => {
    expect(() => createSandbox({ x402Wallets: ["0xnope"] })).toThrow(/SANDBOX_X402_WALLETS must/);
    const made = createSandbox({ x402Wallets: [REGISTERED.toLowerCase()] });
    try {
      expect(made.options.x402Wallets).toEqual([REGISTERED]);
    } finally {
      made.dispose();
    }
  });

  it("the CLI exits 1 with one line naming the variable", async () => {
    const run = promisify(execFile);
    const failed = await run(process.execPath, ["demo/sandbox/main.ts"], {
      env: { ...process.env, SANDBOX_PORT: "0", SANDBOX_X402_WALLETS: "0xbad" },
    }).catch((err: { code: number; stderr: string }) => err);
    expect((failed as { code: number }).code).toBe(1);
    expect((failed as { stderr: string }).stderr.trim()).toMatch(
      /^sandbox: SANDBOX_X402_WALLETS must be comma-separated 0x addresses/,
    );
  });

  it("verify takes the registered wallet, whatever the case it is written in, and no other", async () => {
    for (const payTo of [REGISTERED, REGISTERED.toLowerCase()]) {
      const reqs = requirements({ payTo });
      const r = await api(
        "POST",
        "/x402/verify",
        facilitatorBody(await signedPayment(newPayer(), reqs), reqs),
      );
      expect(r.json.isValid, payTo).toBe(true);
    }
    const demo = requirements({ payTo: DEMO_X402_WALLET });
    const refused = await api(
      "POST",
      "/x402/verify",
      facilitatorBody(await signedPayment(newPayer(), demo), demo),
    );
    expect(refused.json).toMatchObject({
      isValid: false,
      invalidReason: "invalid_payment_requirements",
    });
  });
});

describe("/sandbox/x402 controls", () => {
  it("GET /sandbox/x402 shows the facilitator's setup", async () => {
    const r = await admin("GET", "/sandbox/x402");
    expect(r.json.data).toEqual({
      facilitator: FACILITATOR_ADDRESS,
      network: "eip155:84532",
      asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
      wallets: [REGISTERED],
      confirmMs: 3000,
      failNext: { remaining: 0, reason: "invalid_exact_evm_transaction_failed" },
      settlements: 0,
      limit: 10_000,
    });
  });

  it("a payer starts with 1,000 USDC; its balance is set and read as exact decimals", async () => {
    const payer = newPayer().address;
    const start = await admin("GET", `/sandbox/x402/payers/${payer}/balance`);
    expect(start.json.data).toEqual({
      address: payer.toLowerCase(),
      balance: "1000",
      atomic: "1000000000",
    });
    for (const [given, balance, atomic] of [
      ["12.5", "12.5", "12500000"],
      ["0.000001", "0.000001", "1"],
      ["0", "0", "0"],
      [
        "123456789012345678901234567890",
        "123456789012345678901234567890",
        "123456789012345678901234567890000000",
      ],
    ]) {
      const set = await admin("POST", `/sandbox/x402/payers/${payer}/balance`, { balance: given });
      expect(set.status, given).toBe(200);
      expect(set.json.data).toEqual({ address: payer.toLowerCase(), balance, atomic });
      // Read back through another spelling of the address.
      const read = await admin(
        "GET",
        `/sandbox/x402/payers/${payer.toUpperCase().replace("0X", "0x")}/balance`,
      );
      expect(read.json.data.atomic).toBe(atomic);
    }
    for (const bad of [{ balance: "0.0000001" }, { balance: "-1" }, { balance: "abc" }, {}]) {
      const r = await admin("POST", `/sandbox/x402/payers/${payer}/balance`, bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.json.code).toBe("exceptions.validation.invalidBody");
    }
    expect((await admin("GET", "/sandbox/x402/payers/0x12/balance")).status).toBe(400);
  });
});

describe("Base in the default currency list", () => {
  it("ETH_BASE (18 dp) and USDC_BASE (6 dp, Base Sepolia USDC) on network Base", async () => {
    const base = (await api("GET", "/currencies?network=base")).json.data;
    expect(base).toEqual([
      expect.objectContaining({
        code: "ETH_BASE",
        network: "Base",
        decimalPlaces: 18,
        contractAddress: null,
        addressMask: "^0x[a-fA-F0-9]{40}$",
      }),
      expect.objectContaining({
        code: "USDC_BASE",
        network: "Base",
        tokenType: "erc20",
        decimalPlaces: 6,
        contractAddress: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
      }),
    ]);
    expect(base[0].tokenType).toBeUndefined();
  });

  it("an invoice can be paid in USDC_BASE (priced 1:1 to USD, 0x address)", async () => {
    const created = await api("POST", "/invoice", {
      accountId: ACCOUNT,
      fiatCurrencyCode: "USD",
      amount: 10,
      orderId: "x402-base-1",
    });
    const locked = await api("POST", "/x-sandbox/invoice/lock-currency", {
      accountId: ACCOUNT,
      id: created.json.data.id,
      cryptoCurrencyCode: "USDC_BASE",
    });
    expect(locked.status).toBe(200);
    expect(locked.json.data.address).toMatch(/^0x[0-9a-f]{40}$/);
    expect(String(locked.json.data.cryptoAmountExpected)).toBe("10");
  });
});
