/**
 * axe-core over each step in happy-dom: names, labels, roles and ARIA (contrast needs a real
 * layout and is checked by the e2e journey in Chromium, in both themes).
 */
import { render, screen } from "@testing-library/preact";
import axe from "axe-core";
import { describe, expect, it, vi } from "vitest";
import { createApi } from "../../widget/api.ts";
import { Checkout } from "../../widget/checkout.tsx";
import { translator } from "../../widget/i18n/index.ts";
import type { CheckoutSnapshot } from "../../worker/api/contract.ts";
import { BASE, CURRENCIES, fakeWorker, payment, snapshot, useWidgetTestDoubles } from "./fakes.ts";

const ok = (data: unknown) => ({ status: 200, body: { data } });

async function violations(first: CheckoutSnapshot, ready: string | RegExp) {
  vi.stubGlobal(
    "fetch",
    fakeWorker({
      "POST /v1/checkouts": () => ok(first),
      "GET /v1/currencies": () => ok(CURRENCIES),
    }).fetch,
  );
  const { container } = render(
    <Checkout api={createApi(BASE)} token="t" i18n={translator("en")} emit={() => {}} />,
  );
  await screen.findAllByText(ready);
  const result = await axe.run(container, {
    runOnly: { type: "tag", values: ["wcag2a", "wcag2aa"] },
    rules: { "color-contrast": { enabled: false } },
  });
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(" | ")}`);
}

useWidgetTestDoubles();

describe("accessibility (axe, WCAG 2 A/AA rules that need no layout)", () => {
  it.each([
    ["currency choice", snapshot(), "Choose how you pay"],
    [
      "payment instructions",
      snapshot({ attempt: { ...snapshot().attempt, payment: payment() } }),
      "Send exactly",
    ],
    [
      "partial payment with refund form",
      snapshot({
        attempt: {
          ...snapshot().attempt,
          status: "partially_paid",
          payment: payment({ received: "10", remaining: "39.9" }),
        },
      }),
      "Refund address",
    ],
    [
      "expired with retry",
      snapshot({ canRetry: true, attempt: { ...snapshot().attempt, status: "expired" } }),
      "Try again",
    ],
  ] as const)("%s", async (_, first, ready) => {
    expect(await violations(first, ready)).toEqual([]);
  });
});
