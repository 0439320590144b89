/**
 * @module
 * Top-up journey: a customer opens the shop's top-up page (`<crypto-checkout mode="deposit">`),
 * sees the deposit address, minimum and the service fee; the deposit arrives in the sandbox and
 * the widget shows the net credit live; the merchant backend is notified with amount,
 * commission and net.
 */
import Big from "big.js";
import { expect, it } from "vitest";
import type { DepositSnapshot } from "../../packages/contract/src/http-api.ts";
import { collectPageErrors, instrumentedContext } from "./support/browser.ts";
import { saveScreenshot } from "./support/screenshots.ts";
import { useStackAndBrowser } from "./support/setup.ts";
import { waitFor } from "./support/wait.ts";
import { widget } from "./support/widget.ts";

const e2e = useStackAndBrowser();

it("top up: address, minimum and fee shown; the deposit arrives; the net credit appears live", async () => {
  const context = await instrumentedContext(e2e.browser);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  const snapshots: DepositSnapshot[] = [];
  await page.exposeFunction("__topUpStatus", (s: DepositSnapshot) => snapshots.push(s));
  await page.addInitScript(() => {
    document.addEventListener("checkout:status", (e) =>
      (window as unknown as { __topUpStatus: (s: unknown) => void }).__topUpStatus(
        (e as CustomEvent).detail,
      ),
    );
  });
  await page.goto(`${e2e.stack.urls.shopUrl}/topup`);
  const w = widget(page);
  await w.getByText("Top up with Tether USD (TRC-20) on TRON").waitFor();
  const first = await waitFor(async () => snapshots[0] ?? undefined, "the first top-up snapshot");
  expect(first.kind).toBe("deposit");
  expect(await w.getByText(first.address).count()).toBe(1);
  await w.getByText(/^Minimum deposit: /).waitFor();
  // Tron has no payment URI: copy and QR only, never the bare address as a (relative) link.
  expect(await w.getByRole("link", { name: "Open in wallet" }).count()).toBe(0);
  // The fee is the tenant's, read from the service (not a constant in the widget).
  await w.getByText(`Service fee: ${first.depositCommissionPercent} % of what you send`).waitFor();

  await page.getByRole("button", { name: "Deposit arrives" }).click();
  const done = await waitFor(
    async () => snapshots.find((s) => s.status === "completed") ?? undefined,
    "completed",
  );
  const s = done.settlement!;
  // Credited = received − service fee − network fee, exactly.
  expect(new Big(s.received).minus(s.commission).minus(s.networkFee).eq(s.net)).toBe(true);
  expect(
    new Big(s.commission).eq(
      new Big(s.received).times(done.depositCommission).round(done.decimalPlaces, Big.roundUp),
    ),
  ).toBe(true);
  await w
    .getByText(new RegExp(`^Credited ${s.net.replace(".", "\\.")} USDT\\.$`))
    .first()
    .waitFor();

  const completed = await waitFor(async () => {
    const res = await fetch(`${e2e.stack.urls.shopUrl}/api/merchant`);
    const { notifications } = (await res.json()) as {
      notifications: { type: string; data: Record<string, string> }[];
    };
    return (
      notifications.find((n) => n.type === "deposit.completed" && n.data.net === s.net) ?? undefined
    );
  }, "a deposit.completed notification");
  expect(completed.data.commission).toBe(s.commission);
  await saveScreenshot(page, "topup");
  expect(errors).toEqual([]);
  await context.close();
});
