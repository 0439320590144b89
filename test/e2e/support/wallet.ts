/**
 * @module
 * Paying from the shopper's wallet (x402) in a journey: the checkout page's demo wallet (its
 * panel: address, network, switches, activity), the widget's *Pay from your wallet* flow, and
 * the sandbox facilitator's admin (balances, settlements, confirm delay).
 */
import type { Page } from "playwright-core";
import { DEMO_WALLET_NAME } from "../../../demo/storefront/demo-wallet/names.ts";
import type { Stack } from "./stack.ts";
import { widget } from "./widget.ts";

/** A settlement as the sandbox's admin lists it. */
export interface Settlement {
  status: string;
  payer: string;
  payTo: string;
  amount: string;
  transaction: string;
}

/** The demo wallet's address, once its panel shows it. */
export async function demoWalletAddress(page: Page): Promise<string> {
  const address = page.locator("#wallet-address", { hasText: /^0x[0-9a-fA-F]{40}$/ });
  await address.waitFor();
  return (await address.textContent())!;
}

/** The widget's *Pay from your wallet* button (named by its text and the amount line). */
export const payFromWalletButton = (page: Page) =>
  widget(page).getByRole("button", { name: /^Pay from your wallet/ });

/** Opens the wallet flow and chooses the demo wallet once the widget lists it. */
export async function payWithDemoWallet(page: Page): Promise<void> {
  await payFromWalletButton(page).click();
  await chooseDemoWallet(page);
}

/** The demo wallet's entry in the widget's list. */
export const demoWalletChoice = (page: Page) =>
  widget(page).getByRole("button", { name: DEMO_WALLET_NAME, exact: true });

export async function chooseDemoWallet(page: Page): Promise<void> {
  await demoWalletChoice(page).click();
}

/** The demo wallet's activity list, newest first, as the panel shows it. */
export async function walletActivity(page: Page): Promise<string[]> {
  return (await page.locator("#wallet-log li").allTextContents()).map((t) => t.trim());
}

/** The sandbox facilitator's admin, from Node. */
export function sandboxX402(stack: Stack) {
  const base = `${stack.urls.sandboxUrl}/sandbox/x402`;
  const send = async (path: string, method: string, body?: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${base}${path}: ${response.status}`);
    return ((await response.json()) as { data: unknown }).data;
  };
  return {
    async balance(address: string): Promise<string> {
      return ((await send(`/payers/${address}/balance`, "GET")) as { balance: string }).balance;
    },
    async settlementsOf(payer: string): Promise<Settlement[]> {
      const all = (await send("/settlements", "GET")) as Settlement[];
      return all.filter((s) => s.payer.toLowerCase() === payer.toLowerCase());
    },
    async confirmDelay(ms: number): Promise<void> {
      await send("/confirm-delay", "PUT", { ms });
    },
  };
}

/**
 * Records the widget's snapshot polls (`GET /v1/checkouts/:id`): a journey that expects "paid"
 * over SSE expects none.
 */
export function recordPolls(page: Page): string[] {
  const polls: string[] = [];
  page.on("request", (request) => {
    const { pathname } = new URL(request.url());
    if (request.method() === "GET" && /^\/v1\/checkouts\/[^/]+$/.test(pathname))
      polls.push(pathname);
  });
  return polls;
}
