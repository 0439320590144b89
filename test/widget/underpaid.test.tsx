/**
 * Issue 10, class 8 in the widget: a rest below the service's minimum is explained, and the
 * widget offers no *Try again* the worker would refuse.
 */
import { render, screen } from "@testing-library/preact";
import { describe, expect, it, vi } from "vitest";
import { createApi } from "../../widget/api.ts";
import { Checkout } from "../../widget/checkout.tsx";
import { translator } from "../../widget/i18n/index.ts";
import {
  BASE,
  CURRENCIES,
  fakeWorker,
  ok,
  payment,
  snapshot,
  useWidgetTestDoubles,
} from "./fakes.ts";

useWidgetTestDoubles();

describe("a rest below the minimum invoice", () => {
  it("says what is due and why it cannot be paid here; no Try again, no instructions", async () => {
    const underpaid = snapshot({
      orderState: "partially_paid",
      amount: "100.00",
      amountPaid: "99.50",
      amountDue: "0.50",
      canRetry: false,
      underpaid: { reason: "remainder_below_minimum", amountDue: "0.50", minimum: "1" },
      attempt: {
        ...snapshot().attempt,
        status: "expired",
        payment: payment({ received: "99.5", amount: "100", remaining: "0.5" }),
      },
    });
    const worker = fakeWorker({
      "GET /v1/currencies": () => ok(CURRENCIES),
      "POST /v1/checkouts": () => ok(underpaid),
    });
    vi.stubGlobal("fetch", worker.fetch);
    render(
      <Checkout
        api={createApi(BASE)}
        token="token.jwt.value"
        i18n={translator("en")}
        emit={() => {}}
      />,
    );
    const said = await screen.findAllByText(/\$0\.50 is still due, less than .*\$1\.00/);
    expect(said.some((el) => el.classList.contains("status"))).toBe(true);
    expect(screen.queryByRole("button", { name: "Try again" })).toBeNull();
    expect(screen.queryByText(/Send the remaining/)).toBeNull();
  });
});
