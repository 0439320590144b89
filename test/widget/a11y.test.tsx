/**
 * axe-core over each step in happy-dom: names, labels, roles and ARIA (contrast needs a real
 * layout and is checked by the e2e journey in Chromium, in both themes).
 */
import { render, screen } from "@testing-library/preact";
import axe from "axe-core";
import { describe, expect, it, vi } from "vitest";
import type { CheckoutSnapshot } from "../../packages/contract/src/http-api.ts";
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
    rules: {
      "color-contrast": { enabled: false },
      // WCAG 2.1 "label in name" (2.5.3), experimental in axe: on explicitly. Voice control
      // users say what they see; an aria-label other than the visible text breaks that.
      "label-content-name-mismatch": { enabled: true },
    },
  });
  const found = [...result.violations, ...labelInName(result)];
  return found.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(" | ")}`);
}

/**
 * Label-in-name findings on buttons whose name must be their text (currency choices): in
 * happy-dom (no layout) axe cannot be sure what text is visible, so a mismatching `aria-label`
 * lands in "incomplete", not in violations. ("Copy" buttons' names start with their text.)
 */
function labelInName(result: axe.AxeResults): axe.Result[] {
  return result.incomplete
    .filter((v) => v.id === "label-content-name-mismatch")
    .map((v) => ({ ...v, nodes: v.nodes.filter((n) => !/>Copy</.test(n.html)) }))
    .filter((v) => v.nodes.length > 0);
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

  it("the label-in-name rule really runs (a mismatching button is reported)", async () => {
    const { container } = render(
      <button type="button" aria-label="Pay USDT_TRC20 on Tron">
        USDT Tether USD
      </button>,
    );
    const result = await axe.run(container, {
      runOnly: { type: "rule", values: ["label-content-name-mismatch"] },
    });
    // Without a layout axe cannot tell visible text for sure: it reports "incomplete".
    expect(labelInName(result).map((v) => v.id)).toEqual(["label-content-name-mismatch"]);
  });
});
