/**
 * The checkout view's main path (`widget/checkout.tsx`): each step and status a shopper sees,
 * exact amounts, copy and announce, SSE updates, duplicate and stale snapshots ignored,
 * partial and overpaid payments with the refund form, retry, every error in plain words with
 * the worker's developer message in `checkout:error`, and German.
 */
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/preact";
import { describe, expect, it, vi } from "vitest";
import { createApi } from "../../widget/api.ts";
import { Checkout } from "../../widget/checkout.tsx";
import { de } from "../../widget/i18n/de.ts";
import { registerLocale, translator } from "../../widget/i18n/index.ts";
import {
  attempted,
  BASE,
  FakeEventSource,
  type fakeWorker,
  ok,
  opening,
  payment,
  refuse,
  renderCheckout,
  snapshot,
  useWidgetTestDoubles,
} from "./fakes.ts";

const setup = (
  routes: Parameters<typeof fakeWorker>[0],
  options: { token?: string | null; locale?: string } = {},
) => renderCheckout(routes, { token: options.token, i18n: translator(options.locale ?? "en") });

useWidgetTestDoubles();

describe("opening the checkout", () => {
  it("shows the order summary, the test-mode banner and the live currency list grouped by network", async () => {
    const { worker } = setup({ "POST /v1/checkouts": () => ok(snapshot(), 201) });
    await screen.findByText("Cedar & Bean");
    expect(worker.calls[0]).toEqual({
      method: "POST",
      path: "/v1/checkouts",
      body: { token: "token.jwt.value" },
    });
    expect(screen.getByText("Two mugs")).toBeTruthy();
    expect(screen.getByText("$49.90")).toBeTruthy();
    expect(screen.getByText(/Test mode — test networks only/)).toBeTruthy();
    await screen.findByRole("button", { name: "USDT Tether USD (TRC-20)" });
    // One display name per network (the service says "BTC" and "Tron"), each said once: the
    // group's legend, not a badge on every button.
    for (const network of ["Bitcoin", "TRON", "Ethereum"])
      expect(screen.getByRole("group", { name: network })).toBeTruthy();
    expect(screen.queryByText("Tron")).toBeNull();
    expect(screen.queryByText("BTC network")).toBeNull();
    // Each button's accessible name is its visible text: the ticker and the service's name.
    const choices = [...document.querySelectorAll<HTMLButtonElement>("button.choice")];
    expect(choices.map((b) => b.textContent)).toEqual([
      "BTCBitcoin",
      "USDTTether USD (TRC-20)",
      "ETHEthereum",
    ]);
    for (const b of choices) expect(b.hasAttribute("aria-label")).toBe(false);
    // Live status follows the checkout's event stream.
    expect(FakeEventSource.instances[0]?.url).toBe(
      `${BASE}/v1/checkouts/abcdefghijklmnopqrstuv/events`,
    );
  });

  it("explains an empty currency list", async () => {
    setup({ "POST /v1/checkouts": () => ok(snapshot(), 201), "GET /v1/currencies": () => ok([]) });
    await screen.findByText(/No crypto currency is available/);
  });
});

describe("paying in-page", () => {
  it("locks the chosen currency and shows exact amount, address, QR, wallet link, warning and countdown", async () => {
    const locked = snapshot({
      seq: 2,
      attempt: {
        ...snapshot().attempt,
        // Tron (TRC-20) has no payment URI: the worker sends no wallet link.
        payment: payment(),
      },
    });
    const { worker } = setup({
      "POST /v1/checkouts": () => ok(snapshot(), 201),
      "POST /v1/checkouts/abcdefghijklmnopqrstuv/currency": () => ok(locked),
    });
    fireEvent.click(await screen.findByRole("button", { name: "USDT Tether USD (TRC-20)" }));
    await screen.findByText("Send exactly");
    expect(worker.calls.at(-1)).toEqual({
      method: "POST",
      path: "/v1/checkouts/abcdefghijklmnopqrstuv/currency",
      body: { cryptoCurrencyCode: "USDT_TRC20" },
    });
    expect(screen.getByText("49.9 USDT")).toBeTruthy();
    expect(screen.getByText("TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7")).toBeTruthy();
    // Never a bare address as a (relative) link: copy and QR code only.
    expect(screen.queryByRole("link", { name: "Open in wallet" })).toBeNull();
    const qr = screen.getByRole("img");
    expect(qr.getAttribute("aria-label")).toBe(
      "QR code: pay 49.9 USDT on TRON to TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7",
    );
    expect(qr.querySelector("path")?.getAttribute("d")?.length).toBeGreaterThan(100);
    expect(screen.getByText(/Send only Tether USD \(TRC-20\) on the TRON network/)).toBeTruthy();
    expect(screen.getByText(/Expires in 1[45]:\d\d/)).toBeTruthy();
  });

  it("links a payment URI, and never a bare address from an older worker (it would be relative)", async () => {
    const evm = payment({
      cryptoCurrencyCode: "ETH",
      currencyName: "Ethereum",
      network: "Ethereum",
      networkName: "Ethereum",
      address: "0x52908400098527886E0F7030069857D2E4169EE7",
      walletUri: "ethereum:0x52908400098527886E0F7030069857D2E4169EE7@11155111?value=1",
    });
    setup({
      "POST /v1/checkouts": () =>
        ok(snapshot({ attempt: { ...snapshot().attempt, payment: evm } }), 201),
    });
    const link = await screen.findByRole("link", { name: "Open in wallet" });
    expect(link.getAttribute("href")).toBe(evm.walletUri);
    cleanup();
    const bare = payment({ walletUri: "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7" });
    setup({
      "POST /v1/checkouts": () =>
        ok(snapshot({ attempt: { ...snapshot().attempt, payment: bare } }), 201),
    });
    await screen.findByText("Send exactly");
    expect(screen.queryByRole("link", { name: "Open in wallet" })).toBeNull();
    for (const a of document.querySelectorAll("a"))
      expect(a.getAttribute("href")).toMatch(/^(https?|bitcoin|ethereum):/);
  });

  it("shows an 18-decimal amount exactly as the worker sent it", async () => {
    const tiny = payment({
      cryptoCurrencyCode: "ETH",
      network: "Ethereum",
      decimalPlaces: 18,
      amount: "0.000000000000000001",
      remaining: "0.000000000000000001",
    });
    setup({
      "POST /v1/checkouts": () =>
        ok(snapshot({ attempt: { ...snapshot().attempt, payment: tiny } }), 201),
    });
    await screen.findByText("0.000000000000000001 ETH");
  });

  it("copies the amount and the address, and announces it", async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal("navigator", { ...navigator, clipboard: { writeText } });
    setup({
      "POST /v1/checkouts": () =>
        ok(snapshot({ attempt: { ...snapshot().attempt, payment: payment() } }), 201),
    });
    const amount = await screen.findByRole("button", { name: "Copy the amount" });
    fireEvent.click(amount);
    await waitFor(() => expect(writeText).toHaveBeenCalledWith("49.9"));
    // Visible beside the button that was used, and spoken (polite live region).
    const note = await screen.findByText("Copied to clipboard");
    expect(note.getAttribute("aria-live")).toBe("polite");
    expect(amount.parentElement?.contains(note)).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Copy the address" }));
    await waitFor(() =>
      expect(writeText).toHaveBeenCalledWith("TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7"),
    );
    await waitFor(() => expect(screen.getAllByText("Copied to clipboard")).toHaveLength(2));
  });

  it("offers the hosted payment page when the service has no in-page currency lock", async () => {
    setup({
      "POST /v1/checkouts": () => ok(snapshot(), 201),
      "POST /v1/checkouts/abcdefghijklmnopqrstuv/currency": () => ({
        status: 409,
        body: { error: { code: "lock_unsupported", message: "no lock" } },
      }),
    });
    fireEvent.click(await screen.findByRole("button", { name: "BTC Bitcoin" }));
    const link = await screen.findByRole("link", { name: "Open payment page" });
    expect(link.getAttribute("href")).toBe("https://pay.example.test/pay/inv_1");
  });

  it("a lock refused with currency_unavailable (a crypto code no longer offered) says choose another; the shop is not blamed", async () => {
    const { events } = setup({
      "POST /v1/checkouts": () => ok(snapshot(), 201),
      "POST /v1/checkouts/abcdefghijklmnopqrstuv/currency": () => ({
        status: 400,
        body: { error: { code: "currency_unavailable", message: "BTC is not available." } },
      }),
    });
    fireEvent.click(await screen.findByRole("button", { name: "BTC Bitcoin" }));
    // The alert, and the picker's note on the currency it rules out.
    const said = await screen.findAllByText(
      "This currency is not available right now. Please choose another.",
    );
    expect(said.some((el) => el.getAttribute("role") === "alert")).toBe(true);
    expect(screen.queryByText(/contact the shop/)).toBeNull();
    expect(events.find((e) => e.name === "checkout:error")?.detail).toMatchObject({
      code: "currency_unavailable",
    });
  });

  it("shows the hosted page link right away in hosted mode", async () => {
    setup({ "POST /v1/checkouts": () => ok(snapshot({ mode: "hosted" }), 201) });
    const link = await screen.findByRole("link", { name: "Open payment page" });
    expect(link.getAttribute("target")).toBe("_blank");
    expect(screen.queryByRole("button", { name: /^Pay \w+ on / })).toBeNull();
  });
});

describe("live status", () => {
  const withPayment = (over: Parameters<typeof snapshot>[0]) =>
    snapshot({
      ...over,
      attempt: { ...snapshot().attempt, payment: payment(), ...(over?.attempt ?? {}) },
    });

  it("follows processing → suspended → paid over SSE, emits events, and closes the stream when final", async () => {
    const { events } = setup({ "POST /v1/checkouts": () => ok(withPayment({}), 201) });
    await screen.findAllByText("Waiting for your payment…");
    const source = FakeEventSource.instances[0]!;
    source.push(
      withPayment({
        seq: 2,
        attempt: { ...snapshot().attempt, status: "processing", payment: payment() },
      }),
    );
    await screen.findAllByText(/Payment detected/);
    source.push(
      withPayment({
        seq: 3,
        attempt: { ...snapshot().attempt, status: "suspended", payment: payment() },
      }),
    );
    await screen.findAllByText(/under review/);
    source.push(
      snapshot({
        seq: 4,
        final: true,
        orderState: "paid",
        amountPaid: "49.90",
        amountDue: "0.00",
        attempt: { ...snapshot().attempt, status: "paid", payment: payment() },
      }),
    );
    const paid = await screen.findAllByText("Paid — thank you!");
    // The status line, and the polite live region that announces it.
    expect(paid.map((el) => el.getAttribute("aria-live"))).toContain("polite");
    expect(source.closed).toBe(true);
    expect(screen.getByRole("link", { name: "Back to the shop" }).getAttribute("href")).toBe(
      "https://shop.example.test/thanks",
    );
    expect(
      events
        .filter((e) => e.name === "checkout:status")
        .map((e) => (e.detail as { seq: number }).seq),
    ).toEqual([1, 2, 3, 4]);
    expect(events.filter((e) => e.name === "checkout:paid")).toHaveLength(1);
  });

  /** The checkout opens on a payment detected (processing) at sequence number 5. */
  const detectedAt5 = () => setup(opening(attempted("processing", {}, { seq: 5 })));

  it("ignores an older snapshot that arrives after a newer one", async () => {
    detectedAt5();
    await screen.findAllByText(/Payment detected/);
    FakeEventSource.instances[0]!.push(withPayment({ seq: 3 }));
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.getAllByText(/Payment detected/)).toHaveLength(2);
  });

  it("ignores a snapshot with the sequence number already shown (a duplicate, not news)", async () => {
    const { events } = detectedAt5();
    await screen.findAllByText(/Payment detected/);
    FakeEventSource.instances[0]!.push(withPayment({ seq: 5 }));
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.getAllByText(/Payment detected/)).toHaveLength(2);
    expect(events.filter((e) => e.name === "checkout:status")).toHaveLength(1);
  });

  it("partially paid: received X of Y, send the remaining Z, and a refund address form", async () => {
    const partial = attempted(
      "partially_paid",
      { received: "10", remaining: "39.9" },
      { orderState: "partially_paid", amountPaid: "10.00", amountDue: "39.90" },
    );
    setup({ "POST /v1/checkouts": () => ok(partial, 201) });
    await screen.findAllByText("Received 10 of 49.9 USDT.");
    expect(screen.getByText("Send the remaining")).toBeTruthy();
    expect(screen.getByText("39.9 USDT")).toBeTruthy();
    await screen.findByLabelText("Refund address");
  });

  it("partially paid, then the window closed: says so and what is still due beside Try again", async () => {
    // The worker keeps `partially_paid` on an invoice that expired after a partial payment
    // (never moved back); `canRetry` is the only sign its window closed.
    const ended = attempted(
      "partially_paid",
      { received: "10", remaining: "39.9" },
      { orderState: "partially_paid", amountPaid: "10.00", amountDue: "39.90", canRetry: true },
    );
    setup({ "POST /v1/checkouts": () => ok(ended, 201) });
    await screen.findAllByText(
      "Received 10 of 49.9 USDT before this payment window closed. Try again to pay the $39.90 still due.",
    );
    expect(screen.getByRole("button", { name: "Try again" })).toBeTruthy();
    expect(screen.queryByText("Send the remaining")).toBeNull();
  });

  it("overpaid: paid, the excess explained, a refund address form that the worker stores", async () => {
    const over = attempted(
      "overpaid",
      { received: "55", remaining: "0" },
      { final: true, orderState: "paid", amountOverpaid: "5.00" },
    );
    const saved = {
      ...over,
      seq: 2,
      refundAddress: {
        cryptoCurrencyCode: "USDT_TRC20",
        address: "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7",
      },
    };
    const { worker } = setup({
      "POST /v1/checkouts": () => ok(over, 201),
      "POST /v1/checkouts/abcdefghijklmnopqrstuv/refund-address": () => ok(saved),
    });
    // How much extra (fiat), the crypto figures behind it, and how to claim it.
    await screen.findAllByText(/you sent \$5\.00 more than needed\./);
    expect(screen.getByText("Received 55 of 49.9 USDT.")).toBeTruthy();
    const input = await screen.findByLabelText("Refund address");
    fireEvent.input(input, { target: { value: "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7" } });
    fireEvent.click(screen.getByRole("button", { name: "Save refund address" }));
    await screen.findByText("Refund address saved.");
    expect(worker.calls.at(-1)?.body).toEqual({
      cryptoCurrencyCode: "USDT_TRC20",
      address: "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7",
    });
  });

  it("refuses a refund address with a broken checksum before sending it", async () => {
    const over = attempted(
      "overpaid",
      {},
      { final: true, orderState: "paid", amountOverpaid: "5.00" },
    );
    const { worker } = setup({ "POST /v1/checkouts": () => ok(over, 201) });
    const input = await screen.findByLabelText("Refund address");
    fireEvent.input(input, { target: { value: "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU8" } });
    fireEvent.click(screen.getByRole("button", { name: "Save refund address" }));
    await screen.findByText(/checksum does not match/);
    expect(worker.calls.some((c) => c.path.endsWith("/refund-address"))).toBe(false);
  });

  it("sandbox mode: a mainnet address is refused before sending; a testnet one is sent", async () => {
    const partial = snapshot({
      sandbox: true,
      orderState: "partially_paid",
      attempt: {
        ...snapshot().attempt,
        status: "partially_paid",
        payment: payment({ cryptoCurrencyCode: "BTC", network: "BTC", decimalPlaces: 8 }),
      },
    });
    const { worker } = setup({
      "POST /v1/checkouts": () => ok(partial, 201),
      "POST /v1/checkouts/abcdefghijklmnopqrstuv/refund-address": () => ok(partial),
    });
    const input = await screen.findByLabelText("Refund address");
    // BIP-173's mainnet P2WPKH example, then the same key's testnet address.
    fireEvent.input(input, { target: { value: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4" } });
    fireEvent.click(screen.getByRole("button", { name: "Save refund address" }));
    await screen.findByText("Test mode: use a test-network address, not a mainnet one.");
    expect(worker.calls.some((c) => c.path.endsWith("/refund-address"))).toBe(false);
    fireEvent.input(input, { target: { value: "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx" } });
    fireEvent.click(screen.getByRole("button", { name: "Save refund address" }));
    await waitFor(() =>
      expect(worker.calls.at(-1)?.body).toEqual({
        cryptoCurrencyCode: "BTC",
        address: "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx",
      }),
    );
  });

  it("a refund already on its way: the worker's 409 refund_address_frozen is explained", async () => {
    const over = attempted(
      "overpaid",
      {},
      { final: true, orderState: "paid", amountOverpaid: "5.00" },
    );
    setup({
      "POST /v1/checkouts": () => ok(over, 201),
      "POST /v1/checkouts/abcdefghijklmnopqrstuv/refund-address": () =>
        refuse(409, "refund_address_frozen"),
    });
    const input = await screen.findByLabelText("Refund address");
    fireEvent.input(input, { target: { value: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf" } });
    fireEvent.click(screen.getByRole("button", { name: "Save refund address" }));
    await screen.findByText("A refund is on its way to this address; it can no longer change.");
  });

  it.each([
    ["expired", "This payment attempt expired before a payment arrived."],
    ["failed", "This payment attempt failed."],
    ["cancelled", "This payment attempt was cancelled."],
  ] as const)("%s: explains it and 'Try again' starts the next attempt", async (status, text) => {
    const ended = snapshot({ canRetry: true, attempt: { ...snapshot().attempt, status } });
    const next = snapshot({
      seq: 9,
      attempt: { ...snapshot().attempt, number: 2, orderId: "cc-1001-2" },
    });
    const { worker, events } = setup({
      "POST /v1/checkouts": () => ok(ended, 201),
      "POST /v1/checkouts/abcdefghijklmnopqrstuv/retry": () => ok(next),
    });
    await screen.findAllByText(text);
    expect(events.some((e) => e.name === "checkout:expired")).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    await screen.findByRole("button", { name: "BTC Bitcoin" });
    expect(worker.calls.some((c) => c.method === "POST" && c.path.endsWith("/retry"))).toBe(true);
  });
});

describe("errors are messages, never a blank box", () => {
  it("a missing token: says so, calls nothing, emits checkout:error", async () => {
    const { worker, events } = setup({}, { token: null });
    await screen.findByText(/missing its token/);
    expect(worker.calls).toHaveLength(0);
    expect(events[0]).toEqual({
      name: "checkout:error",
      detail: {
        code: "missing_token",
        message: expect.stringContaining("token"),
        developerMessage: expect.stringContaining("token attribute"),
      },
    });
  });

  it.each([
    ["token_invalid", 401, /checkout link is not valid/],
    ["token_expired", 401, /checkout link has expired/],
    ["checkout_conflict", 409, /different amount/],
    ["order_id_collision", 409, /cannot be paid here/],
    ["order_refunded", 409, /was refunded/],
    ["service_busy", 503, /busy/],
    ["something_new", 500, /Something went wrong/],
  ])("%s (%i) shows a clear message", async (code, status, text) => {
    const { events } = setup({
      "POST /v1/checkouts": () => ({ status, body: { error: { code, message: "x" } } }),
    });
    await screen.findByText(text);
    expect(events.find((e) => e.name === "checkout:error")?.detail).toMatchObject({ code });
  });

  it("unknown_currency on opening (the token's fiat currency) sends the shopper to the shop, offers no other choice", async () => {
    const { events } = setup({
      "POST /v1/checkouts": () => ({
        status: 400,
        body: {
          error: {
            code: "unknown_currency",
            message: "XYZ is not a currency this merchant can invoice in.",
          },
        },
      }),
    });
    await screen.findByText("This order cannot be paid here. Please contact the shop.");
    expect(screen.queryByText(/choose another/)).toBeNull();
    expect(events.find((e) => e.name === "checkout:error")?.detail).toMatchObject({
      code: "unknown_currency",
      message: "This order cannot be paid here. Please contact the shop.",
    });
  });

  it("an unreachable worker shows a connection message", async () => {
    vi.stubGlobal("fetch", async () => {
      throw new TypeError("Failed to fetch");
    });
    render(<Checkout api={createApi(BASE)} token="t" i18n={translator("en")} emit={() => {}} />);
    await screen.findByText(/cannot reach the checkout service/);
  });
});

describe("a refunded order", () => {
  it("says so and offers nothing to pay: no instructions, no refund form, no Try again", async () => {
    const partial = snapshot({
      orderState: "refunded",
      attempt: {
        ...snapshot().attempt,
        status: "partially_paid",
        payment: payment({ received: "20" }),
      },
    });
    setup({ "POST /v1/checkouts": () => ok(partial) });
    // The status line (and the live region announcing it) says refunded.
    const said = await screen.findAllByText(/This order was refunded/);
    expect(said.some((el) => el.classList.contains("status"))).toBe(true);
    expect(screen.queryByText(/Send the remaining/)).toBeNull();
    expect(screen.queryByText(/Refund address/)).toBeNull();
    expect(screen.queryByRole("button", { name: "Try again" })).toBeNull();
    expect(screen.queryByRole("button", { name: /^Pay \w+ on / })).toBeNull();
  });
});

describe("locales", () => {
  it("German: translated texts and a comma decimal", async () => {
    registerLocale("de", de);
    setup({ "POST /v1/checkouts": () => ok(snapshot(), 201) }, { locale: "de-DE" });
    await screen.findByText("49,90 $");
    expect(screen.getByText("Gesamtbetrag")).toBeTruthy();
    await screen.findByRole("button", { name: "USDT Tether USD (TRC-20)" });
  });
});
