/**
 * @module
 * Paying from the shopper's wallet (x402), in the real demo stack, with the checkout page's
 * demo wallet (a test key announced by EIP-6963; it starts on Ethereum and does not know Base
 * Sepolia). A USD order: *Pay from your wallet*, the demo wallet, the chain switch (4902, add,
 * switch), one signature, *Confirming your payment…*, then paid live (SSE) in the widget, the
 * ledger and the merchant view, with exactly one `order.paid` (`paymentMethod: "x402"`).
 * Then the stops, each with a way on: declined in the wallet (then *Try again* pays), a wallet
 * that will not switch networks (named), and a wallet without USDC (refused, then refilled).
 */
import { describe, expect, it } from "vitest";
import { DEMO_X402_WALLET } from "../../demo/sandbox/x402-wallets.ts";
import { seriousViolations } from "./support/axe.ts";
import { expectOnePaidNotification, openCheckout, paidNotifications } from "./support/journey.ts";
import { saveClip, saveScreenshot } from "./support/screenshots.ts";
import { useStackAndBrowser } from "./support/setup.ts";
import { waitFor } from "./support/wait.ts";
import {
  chooseDemoWallet,
  demoWalletAddress,
  demoWalletChoice,
  payFromWalletButton,
  payWithDemoWallet,
  recordPolls,
  sandboxX402,
  walletActivity,
} from "./support/wallet.ts";
import { waitForSnapshot, waitForWidgetText, widget, widgetText } from "./support/widget.ts";

const e2e = useStackAndBrowser();

/** The pour-over kit: 42.00 USD, so 42 USDC (USD 1:1), atomic 42000000. */
const ITEMS = [{ productId: "pour-over-kit", quantity: 1 }];
const TX_HASH = /^0x[0-9a-f]{64}$/;

/** A USD checkout offering x402, with the demo wallet's address. */
async function walletCheckout() {
  const open = await openCheckout(e2e.stack, e2e.browser, { items: ITEMS, currency: "USD" });
  const payer = await demoWalletAddress(open.page);
  return { ...open, payer };
}

describe("pay from your wallet (x402, the demo wallet)", () => {
  it("switches chain, signs once, confirms, and is paid live with one x402 order.paid", async () => {
    const x402 = sandboxX402(e2e.stack);
    // Long enough to see (and photograph) "Confirming your payment…" before the webhook.
    await x402.confirmDelay(4000);
    const { page, context, order, snapshot, payer, errors } = await walletCheckout();
    expect(order.amount).toBe("42.00");
    expect(snapshot.x402).toMatchObject({
      network: "eip155:84532",
      chainName: "Base Sepolia",
      symbol: "USDC",
      amount: "42.000000",
    });
    expect(await x402.balance(payer)).toBe("1000");
    await page.evaluate(() => {
      (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
    });
    const polls = recordPolls(page);

    // The button says what will be paid, the amount's trailing zeros dropped.
    expect(await payFromWalletButton(page).textContent()).toContain("42 USDC on Base Sepolia");
    await payFromWalletButton(page).click();
    await demoWalletChoice(page).waitFor();
    expect(await widget(page).locator(".wallet img").getAttribute("src")).toMatch(
      /^data:image\/svg\+xml,/,
    );
    await saveClip(page, payFromWalletButton(page), widget(page), "wallet-choose");
    await chooseDemoWallet(page);

    await waitForWidgetText(page, /Confirming your payment…/);
    const submitted = await waitForSnapshot(page, {});
    expect(submitted.x402Payment).toMatchObject({ status: "submitted", payer });
    expect(submitted.orderState).not.toBe("paid");
    await saveScreenshot(widget(page), "wallet-confirming");

    // The wallet was asked to switch, did not know Base Sepolia (4902), added it, switched,
    // and signed on it: the panel says so, newest first.
    expect(await page.locator("#wallet-chain").textContent()).toBe("Base Sepolia (84532)");
    const activity = (await walletActivity(page)).reverse();
    expect(activity.map((line) => line.split(" ")[0])).toEqual([
      "eth_requestAccounts",
      "eth_chainId",
      "wallet_switchEthereumChain",
      "wallet_addEthereumChain",
      "wallet_switchEthereumChain",
      "eth_signTypedData_v4",
    ]);
    expect(activity[2]).toContain("error 4902");
    expect(activity[3]).toContain("added Base Sepolia (84532)");
    expect(activity[5]).toContain("signed");

    // The sandbox confirms, its webhook reaches the worker, the widget hears it over SSE.
    const paid = await waitForSnapshot(page, { orderState: "paid" }, 30_000);
    expect(paid.amountDue).toBe("0.00");
    expect(paid.x402Payment).toMatchObject({ status: "confirmed", payer, amount: "42.000000" });
    expect(paid.x402Payment?.transaction).toMatch(TX_HASH);
    await waitForWidgetText(page, /thank you/i);
    expect(await widgetText(page)).not.toMatch(/Confirming your payment/);
    expect(polls).toEqual([]);
    expect(
      await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument),
    ).toBe(true);
    await saveScreenshot(widget(page), "wallet-paid");

    // One transfer, from the payer to the merchant's own wallet, debited once.
    const settlements = await x402.settlementsOf(payer);
    expect(settlements).toHaveLength(1);
    expect(settlements[0]).toMatchObject({
      status: "confirmed",
      payTo: DEMO_X402_WALLET,
      amount: "42000000",
      transaction: paid.x402Payment!.transaction,
    });
    expect(await x402.balance(payer)).toBe("958");
    await page.locator("#wallet-balance", { hasText: "958 USDC" }).waitFor();
    await saveScreenshot(page.locator(".wallet-panel"), "wallet-demo-panel");

    // The merchant's ledger: paid, with the x402 payment's payer and transaction.
    const ledger = await waitFor(async () => {
      const l = await e2e.stack.ledger(order.invoiceNumber);
      return l.state === "paid" && l;
    }, "the ledger to say paid");
    expect(ledger.amountPaid).toBe("42.00");
    expect(ledger.x402Payments).toEqual([
      expect.objectContaining({
        status: "confirmed",
        payer,
        transaction: paid.x402Payment!.transaction,
      }),
    ]);
    await expectOnePaidNotification(e2e.stack, order.invoiceNumber);
    const [notification] = await paidNotifications(e2e.stack, order.invoiceNumber);
    expect(notification!.data).toMatchObject({
      paymentMethod: "x402",
      payer,
      transaction: paid.x402Payment!.transaction,
      network: "eip155:84532",
      amountPaid: "42.00",
    });

    // The merchant view shows the order paid, and who paid from which transaction.
    const merchant = await context.newPage();
    await merchant.goto(`${e2e.stack.urls.shopUrl}/merchant`);
    const card = merchant.locator(".order-card", { hasText: `Order ${order.invoiceNumber}` });
    await card.locator(".pill[data-status='paid']").waitFor();
    const x402Table = card.getByRole("region", { name: "Wallet payments (x402)" });
    await x402Table.waitFor();
    expect(await x402Table.textContent()).toContain(payer);
    expect(await x402Table.textContent()).toContain(paid.x402Payment!.transaction!);
    await merchant.locator("#notifications [data-type='order.paid']").first().waitFor();
    await saveScreenshot(merchant, "wallet-merchant");
    expect(await seriousViolations(merchant)).toEqual([]);
    expect(errors.filter((e) => e.startsWith("pageerror"))).toEqual([]);
    await context.close();
  });

  it("declined in the wallet: says so, nothing is paid, and Try again pays", async () => {
    const x402 = sandboxX402(e2e.stack);
    await x402.confirmDelay(500);
    const { page, context, order, payer } = await walletCheckout();
    await page.getByLabel("Decline the next signature").check();
    await payWithDemoWallet(page);

    await widget(page)
      .getByRole("alert")
      .filter({ hasText: "You declined in your wallet." })
      .waitFor();
    expect(await widget(page).getByRole("button", { name: "Try again" }).isEnabled()).toBe(true);
    expect(await widget(page).getByRole("button", { name: "Pay another way" }).count()).toBe(1);
    await saveClip(page, payFromWalletButton(page), widget(page), "wallet-declined");
    // Nothing was sent: no settlement, no payment, the balance untouched.
    expect(await x402.settlementsOf(payer)).toEqual([]);
    expect(await x402.balance(payer)).toBe("1000");
    const shown = await waitForSnapshot(page, {});
    expect(shown.orderState).not.toBe("paid");
    expect(shown.x402Payment ?? null).toBeNull();
    expect((await walletActivity(page))[0]).toContain("error 4001");
    // The wallet declines once: its switch is off again.
    expect(await page.getByLabel("Decline the next signature").isChecked()).toBe(false);

    await widget(page).getByRole("button", { name: "Try again" }).click();
    const paid = await waitForSnapshot(page, { orderState: "paid" }, 30_000);
    expect(paid.x402Payment).toMatchObject({ status: "confirmed", payer });
    await waitForWidgetText(page, /thank you/i);
    expect(await x402.settlementsOf(payer)).toHaveLength(1);
    await expectOnePaidNotification(e2e.stack, order.invoiceNumber);
    await context.close();
  });

  it("a wallet that will not switch networks: names the network, and the checkout is back", async () => {
    const x402 = sandboxX402(e2e.stack);
    const { page, context, payer } = await walletCheckout();
    await page.getByLabel("Refuse to switch networks").check();
    await payWithDemoWallet(page);

    const message = "Your wallet is not on Base Sepolia. Switch it to Base Sepolia and try again.";
    await widget(page).getByRole("alert").filter({ hasText: message }).waitFor();
    await saveClip(page, payFromWalletButton(page), widget(page), "wallet-wrong-chain");
    // The stop, the demo wallet panel and the checkout around them: no serious violation.
    expect(await seriousViolations(page)).toEqual([]);
    // Nothing was signed: the wallet stayed on Ethereum.
    expect(await page.locator("#wallet-chain").textContent()).toBe("Ethereum (1)");
    expect((await walletActivity(page)).some((l) => l.startsWith("eth_signTypedData_v4"))).toBe(
      false,
    );
    expect(await x402.settlementsOf(payer)).toEqual([]);

    // The way back: the flow closes, the currency list and the wallet button are there again.
    await widget(page).getByRole("button", { name: "Pay another way" }).click();
    await widget(page).locator(".wallet").waitFor({ state: "detached" });
    expect(await payFromWalletButton(page).isEnabled()).toBe(true);
    expect(await widget(page).getByRole("group").count()).toBeGreaterThan(0);
    expect((await waitForSnapshot(page, {})).orderState).not.toBe("paid");
    await context.close();
  });

  it("a wallet without USDC: the facilitator refuses, refilled it pays", async () => {
    const x402 = sandboxX402(e2e.stack);
    await x402.confirmDelay(500);
    const { page, context, order, payer } = await walletCheckout();
    // The panel sets the balance through the sandbox's admin (`POST …/payers/:address/balance`).
    await page.getByRole("button", { name: "Empty its USDC" }).click();
    await page.locator("#wallet-balance", { hasText: /^0 USDC$/ }).waitFor();
    expect(await x402.balance(payer)).toBe("0");
    await payWithDemoWallet(page);

    await widget(page)
      .getByRole("alert")
      .filter({ hasText: "Not enough USDC in this wallet." })
      .waitFor();
    expect(await widget(page).getByRole("button", { name: "Pay another way" }).count()).toBe(1);
    await saveClip(page, payFromWalletButton(page), widget(page), "wallet-insufficient");
    // Signed, refused at verification: nothing settled, nothing paid.
    expect((await walletActivity(page))[0]).toContain("signed");
    expect(await x402.settlementsOf(payer)).toEqual([]);
    expect((await waitForSnapshot(page, {})).orderState).not.toBe("paid");
    expect(await paidNotifications(e2e.stack, order.invoiceNumber)).toEqual([]);

    await page.getByRole("button", { name: "Refill 1,000 USDC" }).click();
    await page.locator("#wallet-balance", { hasText: /^1000 USDC$/ }).waitFor();
    await widget(page).getByRole("button", { name: "Try again" }).click();
    const paid = await waitForSnapshot(page, { orderState: "paid" }, 30_000);
    expect(paid.x402Payment).toMatchObject({ status: "confirmed", payer });
    expect(await x402.balance(payer)).toBe("958");
    await context.close();
  });
});
