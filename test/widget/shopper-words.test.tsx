/**
 * What a shopper sees and hears at the points issue 23 found confusing: one QR code at a time in
 * hosted mode, a refund-too-small note only where it matters, copy buttons named for what they
 * copy, and a currency said once when its name is its code.
 */
import { fireEvent, screen, waitFor } from "@testing-library/preact";
import { describe, expect, it } from "vitest";
import type { CryptoCurrency } from "../../packages/contract/src/http-api.ts";
import {
  attempted,
  CURRENCIES,
  FakeEventSource,
  opening,
  payment,
  renderCheckout,
  snapshot,
  useWidgetTestDoubles,
} from "./fakes.ts";

useWidgetTestDoubles();

const TOO_SMALL = /cannot be sent back/;

describe("hosted mode: one QR code at a time (item 1)", () => {
  it("once the payer chose on the page, the page's QR code and its button go; the payment's stays", async () => {
    renderCheckout(opening(snapshot({ mode: "hosted" })));
    fireEvent.click(await screen.findByRole("button", { name: "Pay on your phone" }));
    await screen.findByRole("img", { name: "Scan to open the payment page on your phone." });
    FakeEventSource.instances[0]!.push(
      snapshot({ mode: "hosted", seq: 2, attempt: { ...snapshot().attempt, payment: payment() } }),
    );
    await screen.findByText("Send exactly");
    expect(screen.getAllByRole("img")).toHaveLength(1);
    expect(screen.getByRole("img").getAttribute("aria-label")).toMatch(/^QR code: pay 49.9 USDT/);
    expect(screen.queryByRole("button", { name: "Pay on your phone" })).toBeNull();
    expect(screen.getByRole("link", { name: "Open payment page" })).toBeTruthy();
  });
});

describe("the refund-too-small note (item 2)", () => {
  const small = { excess: "0.00232812", minimum: "0.0052", possible: false };

  it("is not shown while the shopper is asked for the rest of a partial payment", async () => {
    renderCheckout(
      opening(
        attempted(
          "partially_paid",
          { received: "0.00232812", remaining: "0.01", refund: small },
          { orderState: "partially_paid" },
        ),
      ),
    );
    await screen.findByText("Send the remaining");
    expect(screen.queryByText(TOO_SMALL)).toBeNull();
  });

  it("is shown, calmly, when the shopper overpaid", async () => {
    renderCheckout(
      opening(
        attempted(
          "overpaid",
          { received: "50.4", remaining: "0", refund: { ...small, excess: "0.5", minimum: "11" } },
          { final: true, orderState: "paid", amountOverpaid: "0.50" },
        ),
      ),
    );
    const note = await screen.findByText(TOO_SMALL);
    expect(note.textContent).toBe(
      "0.5 USDT is less than the smallest refund that can be sent (11 USDT, network fee included), so it cannot be sent back automatically. Contact the shop if you have questions about it.",
    );
  });

  it("is shown when the order ends underpaid (the rest is below the service's minimum)", async () => {
    renderCheckout(
      opening(
        attempted(
          "partially_paid",
          {
            received: "49.89",
            remaining: "0.01",
            refund: { ...small, excess: "49.89", minimum: "60" },
          },
          {
            orderState: "partially_paid",
            underpaid: { reason: "remainder_below_minimum", amountDue: "0.01", minimum: "1.00" },
          },
        ),
      ),
    );
    await screen.findByText(TOO_SMALL);
  });
});

describe("what screen readers hear (item 3)", () => {
  it("copy buttons say what they copy, not 'Copy: Send exactly'", async () => {
    renderCheckout(opening(attempted("created")));
    await screen.findByText("Send exactly");
    expect(screen.getByRole("button", { name: "Copy the amount" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Copy the address" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: /^Copy:/ })).toBeNull();
  });

  it("a currency whose name is its code is said once ('BNB', not 'BNB BNB')", async () => {
    const bnb: CryptoCurrency = {
      ...CURRENCIES[2]!,
      code: "BNB",
      name: "BNB",
      network: "BSC",
      networkName: "BNB Smart Chain",
    };
    renderCheckout(opening(snapshot()), { currencies: [...CURRENCIES, bnb] });
    const button = await screen.findByRole("button", { name: "BNB" });
    expect(button.textContent).toBe("BNB");
    await waitFor(() => expect(screen.getByRole("button", { name: "BTC Bitcoin" })).toBeTruthy());
  });
});
