/**
 * Hosted mode in the widget: the payment page as the primary action (new tab), its link as a
 * QR code on demand for paying from a phone, live status, the payer's choice on the page
 * shown in the widget (currency, amount, address), and `checkout:paid` as in in-page mode.
 */
import { fireEvent, render, screen, waitFor } from "@testing-library/preact";
import { describe, expect, it, vi } from "vitest";
import { createApi } from "../../widget/api.ts";
import { Checkout } from "../../widget/checkout.tsx";
import { translator } from "../../widget/i18n/index.ts";
import { qrPath } from "../../widget/qr.ts";
import {
  BASE,
  CURRENCIES,
  FakeEventSource,
  fakeWorker,
  ok,
  payment,
  snapshot,
  useWidgetTestDoubles,
} from "./fakes.ts";

const PAGE = "https://pay.example.test/pay/inv_1";

function setup(
  first = snapshot({ mode: "hosted" }),
  routes: Parameters<typeof fakeWorker>[0] = {},
) {
  const worker = fakeWorker({
    "GET /v1/currencies": () => ok(CURRENCIES),
    "POST /v1/checkouts": () => ok(first, 201),
    ...routes,
  });
  vi.stubGlobal("fetch", worker.fetch);
  const events: { name: string; detail: unknown }[] = [];
  render(
    <Checkout
      api={createApi(BASE)}
      token="token.jwt.value"
      i18n={translator("en")}
      emit={(name, detail) => events.push({ name, detail })}
    />,
  );
  return { worker, events };
}

useWidgetTestDoubles();

describe("hosted mode", () => {
  it("the primary action opens the payment page in a new tab; no currency picker, no lock call", async () => {
    const { worker } = setup();
    const link = await screen.findByRole("link", { name: "Open payment page" });
    expect(link.getAttribute("href")).toBe(PAGE);
    expect(link.getAttribute("target")).toBe("_blank");
    expect(link.className).toBe("button");
    expect(screen.queryByRole("button", { name: /^Pay \w+ on / })).toBeNull();
    expect(worker.calls.some((c) => c.path.endsWith("/currency"))).toBe(false);
  });

  it("shows the page's link as a QR code only when asked, for paying from a phone", async () => {
    setup();
    const ask = await screen.findByRole("button", { name: "Pay on your phone" });
    const label = "Scan to open the payment page on your phone.";
    expect(screen.queryByRole("img", { name: label })).toBeNull();
    fireEvent.click(ask);
    const qr = await screen.findByRole("img", { name: label });
    // The code encodes exactly the payment page's URL.
    await waitFor(() =>
      expect(qr.querySelector("path")?.getAttribute("d")).toBe(qrPath(PAGE)?.path),
    );
    expect(screen.queryByRole("button", { name: "Pay on your phone" })).toBeNull();
    // The primary action stays.
    expect(screen.getByRole("link", { name: "Open payment page" })).toBeTruthy();
  });

  it("a pick the service cannot lock (answered with a hosted snapshot) shows the payment page, no error", async () => {
    const { events } = setup(snapshot(), {
      "POST /v1/checkouts/abcdefghijklmnopqrstuv/currency": () =>
        ok(snapshot({ mode: "hosted", seq: 2 })),
    });
    fireEvent.click(await screen.findByRole("button", { name: "BTC Bitcoin" }));
    const link = await screen.findByRole("link", { name: "Open payment page" });
    expect(link.getAttribute("href")).toBe(PAGE);
    expect(screen.queryByRole("alert")).toBeNull();
    expect(events.some((e) => e.name === "checkout:error")).toBe(false);
    expect(screen.queryByRole("button", { name: /^Pay \w+ on / })).toBeNull();
  });

  it("a page URL that is not https (or loopback) is neither linked nor encoded", async () => {
    setup(
      snapshot({
        mode: "hosted",
        attempt: { ...snapshot().attempt, paymentPageUrl: "javascript:alert(1)" },
      }),
    );
    await screen.findByText(/Continue on the payment page/);
    expect(screen.queryByRole("link", { name: "Open payment page" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Pay on your phone" })).toBeNull();
  });

  it("follows live status: the payer's choice on the page shows currency, amount and address; paid fires checkout:paid once", async () => {
    const { events } = setup();
    await screen.findByRole("link", { name: "Open payment page" });
    expect(screen.getAllByText("Not paid yet.").length).toBeGreaterThan(0);
    const source = FakeEventSource.instances[0]!;
    const chosen = payment({
      cryptoCurrencyCode: "TRX",
      amount: "415.833334",
      remaining: "415.833334",
    });
    source.push(
      snapshot({ mode: "hosted", seq: 2, attempt: { ...snapshot().attempt, payment: chosen } }),
    );
    await screen.findByText("Send exactly");
    expect(screen.getByText("415.833334 TRX")).toBeTruthy();
    expect(screen.getByText(chosen.address)).toBeTruthy();
    expect(screen.getAllByText("Waiting for your payment…").length).toBeGreaterThan(0);
    // The choice was made on the page: the widget offers no currency change of its own.
    expect(screen.queryByRole("button", { name: "Change currency" })).toBeNull();
    expect(screen.getByRole("link", { name: "Open payment page" })).toBeTruthy();
    const paid = snapshot({
      mode: "hosted",
      seq: 3,
      final: true,
      orderState: "paid",
      amountPaid: "49.90",
      amountDue: "0.00",
      attempt: {
        ...snapshot().attempt,
        status: "paid",
        payment: { ...chosen, received: chosen.amount, remaining: "0" },
      },
    });
    source.push(paid);
    await screen.findAllByText("Paid — thank you!");
    source.push(paid);
    expect(events.filter((e) => e.name === "checkout:paid")).toHaveLength(1);
    expect(screen.queryByRole("link", { name: "Open payment page" })).toBeNull();
  });
});
