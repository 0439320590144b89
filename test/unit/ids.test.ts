/**
 * The ids the worker writes, each read back by the one module that wrote it
 * (`worker/lib/ids/`): upstream orderIds, the ownership tag, the webhook URL and event ids.
 */
import { describe, expect, it } from "vitest";
import { checkoutIdFor } from "../../worker/lib/ids/checkout-id.ts";
import { newEventId } from "../../worker/lib/ids/event-id.ts";
import { ownershipTag, taggedCheckoutId } from "../../worker/lib/ids/ownership-tag.ts";
import {
  attemptInvoiceNumbers,
  attemptOrderId,
  depositOrderId,
  depositTopUpId,
  isRefundOrderId,
  refundNumber,
  refundOrderId,
} from "../../worker/lib/ids/upstream-order-id.ts";
import { webhookUrl } from "../../worker/lib/ids/webhook-url.ts";

describe("upstream orderIds", () => {
  it("attempt 1 has no suffix, later attempts -n; both read back to candidate invoice numbers", () => {
    expect(attemptOrderId("cc", "1001", 1)).toBe("cc-1001");
    expect(attemptOrderId("cc", "1001", 3)).toBe("cc-1001-3");
    expect(attemptInvoiceNumbers("cc", attemptOrderId("cc", "1001", 1))).toEqual(["1001"]);
    // The suffix is ambiguous: order "A-2" attempt 1, or order "A" attempt 2.
    expect(attemptInvoiceNumbers("cc", attemptOrderId("cc", "A", 2))).toEqual(["A-2", "A"]);
    expect(attemptInvoiceNumbers("cc", "other-1001")).toEqual([]);
  });

  it("a deposit's orderId reads back to its top-up id, another prefix to nothing", () => {
    expect(depositOrderId("cc", "t-42")).toBe("cc-t-42");
    expect(depositTopUpId("cc", depositOrderId("cc", "t-42"))).toBe("t-42");
    expect(depositTopUpId("cc", "xx-t-42")).toBe("");
  });

  it("refund n reads back as n, and only refund ids are reserved", () => {
    for (const n of [1, 2, 17]) {
      const id = refundOrderId("cc", "1001", n);
      expect(refundNumber(id)).toBe(n);
      expect(isRefundOrderId(id)).toBe(true);
    }
    expect(refundOrderId("cc", "1001", 1)).toBe("cc-1001-refund");
    expect(refundNumber(attemptOrderId("cc", "1001", 2))).toBeNull();
    expect(isRefundOrderId("cc-1001-refunded")).toBe(false);
  });
});

describe("ownership tag", () => {
  it("reads back the checkout id it was written with, and refuses anything else", async () => {
    const id = await checkoutIdFor("invoice", "1001", "secret-for-ids-test");
    expect(ownershipTag(id)).toBe(`cc1:${id}`);
    expect(taggedCheckoutId(ownershipTag(id))).toBe(id);
    expect(taggedCheckoutId(`cc2:${id}`)).toBeNull();
    expect(taggedCheckoutId("cc1:not-a-checkout-id")).toBeNull();
    expect(taggedCheckoutId(null)).toBeNull();
  });
});

describe("webhook URL and event ids", () => {
  it("every create names the one webhook route", () => {
    expect(webhookUrl("https://pay.example.com")).toBe("https://pay.example.com/webhooks/payment");
  });

  it("notification ids are evt_ + a fresh UUID", () => {
    const a = newEventId();
    expect(a).toMatch(/^evt_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newEventId()).not.toBe(a);
  });
});
