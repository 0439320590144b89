/**
 * Issue 10, class 8 in the widget: a rest below the service's minimum is explained, and the
 * widget offers no *Try again* the worker would refuse.
 */
import { screen } from "@testing-library/preact";
import { describe, expect, it } from "vitest";
import { attempted, ok, renderCheckout, useWidgetTestDoubles } from "./fakes.ts";

useWidgetTestDoubles();

describe("a rest below the minimum invoice", () => {
  it("says what is due and why it cannot be paid here; no Try again, no instructions", async () => {
    const underpaid = attempted(
      "expired",
      { received: "99.5", amount: "100", remaining: "0.5" },
      {
        orderState: "partially_paid",
        amount: "100.00",
        amountPaid: "99.50",
        amountDue: "0.50",
        canRetry: false,
        underpaid: { reason: "remainder_below_minimum", amountDue: "0.50", minimum: "1" },
      },
    );
    renderCheckout({ "POST /v1/checkouts": () => ok(underpaid) });
    const said = await screen.findAllByText(/\$0\.50 is still due, less than .*\$1\.00/);
    expect(said.some((el) => el.classList.contains("status"))).toBe(true);
    expect(screen.queryByRole("button", { name: "Try again" })).toBeNull();
    expect(screen.queryByText(/Send the remaining/)).toBeNull();
  });
});
