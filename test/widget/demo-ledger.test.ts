/**
 * The demo's ledger panel (`demo/storefront/public/render.js`, shown on the checkout page and
 * the merchant view) passes axe's `heading-order` and `scrollable-region-focusable`: its
 * sections are h3 under the page's h2, and a table that scrolls on a phone is a named region
 * reachable by keyboard.
 */
import { describe, expect, it } from "vitest";
// @ts-expect-error: plain browser JavaScript without declarations.
import { renderLedger } from "../../demo/storefront/public/render.js";

describe("the demo ledger panel", () => {
  it("titles attempts with an h3 and puts the table in a focusable, named region", () => {
    const box = document.createElement("div");
    renderLedger(box, {
      status: 200,
      body: {
        data: {
          invoiceNumber: "1001",
          state: "unpaid",
          attempts: [{ number: 1, orderId: "cc-1001", status: "created", cryptoReceived: "0" }],
        },
      },
    });
    expect(box.querySelector("h4")).toBeNull();
    expect(box.querySelector("h3")?.textContent).toBe("attempts");
    const region = box.querySelector(".table-wrap")!;
    expect(region.getAttribute("tabindex")).toBe("0");
    expect(region.getAttribute("role")).toBe("region");
    expect(region.getAttribute("aria-label")).toBe("attempts");
    expect(region.querySelector("table")).toBeTruthy();
  });

  it("keeps the Refund Address row once the shopper saved one: the address and its currency", () => {
    const box = document.createElement("div");
    const ledgerWith = (refundAddress: unknown) => {
      renderLedger(box, {
        status: 200,
        body: { data: { invoiceNumber: "1001", state: "partially_paid", refundAddress } },
      });
      const terms = [...box.querySelectorAll("dt")].map((dt) => dt.textContent);
      const index = terms.indexOf("refund address");
      return index < 0 ? null : box.querySelectorAll("dd")[index]?.textContent;
    };
    expect(ledgerWith(null)).toBe("—");
    expect(
      ledgerWith({
        cryptoCurrencyCode: "USDT_TRC20",
        address: "TB8vByFsAxi2kkJ8m9kSc7vwtLX7rBifYp",
      }),
    ).toBe("TB8vByFsAxi2kkJ8m9kSc7vwtLX7rBifYp (USDT_TRC20)");
  });
});
