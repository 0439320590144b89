/**
 * What a shopper meets beyond the happy path: a currency on a network the worker does not know,
 * a refund that could not be paid, a device clock that is wrong, a lost connection, and the
 * events a storefront hears (one `checkout:status` per new state).
 */
import { act, fireEvent, screen, waitFor } from "@testing-library/preact";
import { describe, expect, it, vi } from "vitest";
import type { CryptoCurrency, InvoiceStatus } from "../../packages/contract/src/http-api.ts";
import {
  attempted,
  CURRENCIES,
  FakeEventSource,
  type fakeWorker,
  ok,
  payment,
  refuse,
  renderCheckout,
  snapshot,
  useWidgetTestDoubles,
} from "./fakes.ts";

const setup = (routes: Parameters<typeof fakeWorker>[0], currencies = CURRENCIES) =>
  renderCheckout(routes, { currencies });

const withPayment = (over: Parameters<typeof payment>[0], status: InvoiceStatus = "created") =>
  attempted(status, over);

useWidgetTestDoubles();

describe("a network the worker does not know", () => {
  const TON: CryptoCurrency = {
    ...CURRENCIES[1]!,
    code: "USDT_TON",
    name: "Tether USD (TON)",
    network: "TON",
    networkName: "TON",
    contractAddress: null,
    addressMask: "^[1-9A-HJ-NP-Za-km-z]{32,44}$",
  };
  const address = "3yZe7d7Nw2Tj8kqQ8UdrrqJcrTMHXS3m9cLpdHrZBVz1x4Qe";

  it("is listed with its name and network, and paid by copy and QR of the address, never a link", async () => {
    const locked = withPayment({
      cryptoCurrencyCode: "USDT_TON",
      currencyName: "Tether USD (TON)",
      network: "TON",
      networkName: "TON",
      address,
      walletUri: null,
    });
    setup(
      {
        "POST /v1/checkouts": () => ok(snapshot(), 201),
        "POST /v1/checkouts/abcdefghijklmnopqrstuv/currency": () => ok({ ...locked, seq: 2 }),
      },
      [...CURRENCIES, TON],
    );
    const group = await screen.findByRole("group", { name: "TON" });
    const choice = screen.getByRole("button", { name: "USDT Tether USD (TON)" });
    expect(group.contains(choice)).toBe(true);
    fireEvent.click(choice);
    await screen.findByText("Send exactly");
    expect(screen.getByText(address)).toBeTruthy();
    expect(screen.getByRole("button", { name: "Copy the address" })).toBeTruthy();
    expect(screen.getByRole("img").getAttribute("aria-label")).toContain(`on TON to ${address}`);
    expect(screen.getByText(/Send only Tether USD \(TON\) on the TON network/)).toBeTruthy();
    expect(document.querySelectorAll("a")).toHaveLength(0);
  });
});

describe("refunds that cannot be paid are not promised", () => {
  it("an excess below the minimum payout plus fee: no address asked, and the shopper is told why", async () => {
    setup({
      "POST /v1/checkouts": () =>
        ok(
          snapshot({
            final: true,
            orderState: "paid",
            amountOverpaid: "0.50",
            attempt: {
              ...snapshot().attempt,
              status: "overpaid",
              payment: payment({
                received: "50.4",
                remaining: "0",
                refund: { excess: "0.5", minimum: "11", possible: false },
              }),
            },
          }),
          201,
        ),
    });
    await screen.findByText(
      "0.5 USDT is less than the smallest refund that can be sent (11 USDT, network fee included), so it cannot be sent back automatically. Contact the shop if you have questions about it.",
    );
    expect(screen.queryByLabelText("Refund address")).toBeNull();
    expect(screen.queryByText(/refund address below/)).toBeNull();
  });

  it("an excess that reaches it: the refund address form", async () => {
    setup({
      "POST /v1/checkouts": () =>
        ok(
          withPayment(
            {
              received: "20",
              remaining: "29.9",
              refund: { excess: "20", minimum: "11", possible: true },
            },
            "partially_paid",
          ),
          201,
        ),
    });
    await screen.findByLabelText("Refund address");
    expect(screen.queryByText(/cannot be sent back/)).toBeNull();
    // The ticker and the network's display name, never "USDT_TRC20" or "Tron"/"TRON" both.
    expect(screen.getByText("Your USDT address on TRON, in case a refund is due.")).toBeTruthy();
  });
  it("a snapshot stored before the hint existed (an SSE replay after a deploy) still offers the form", async () => {
    const old = payment({ received: "20", remaining: "29.9" }) as Partial<
      ReturnType<typeof payment>
    >;
    delete old.refund;
    setup({
      "POST /v1/checkouts": () =>
        ok(
          snapshot({
            attempt: {
              ...snapshot().attempt,
              status: "partially_paid",
              payment: old as ReturnType<typeof payment>,
            },
          }),
          201,
        ),
    });
    await screen.findByLabelText("Refund address");
  });
});

describe("the countdown runs on the worker's clock", () => {
  it("a device clock 16 minutes fast does not close an open 15-minute window", async () => {
    const real = Date.now();
    const first = withPayment({ expiresAt: new Date(real + 15 * 60_000).toISOString() });
    first.updatedAt = new Date(real).toISOString();
    vi.useFakeTimers({ now: real + 16 * 60_000, toFake: ["Date"] });
    setup({ "POST /v1/checkouts": () => ok(first, 201) });
    await screen.findByText("Send exactly");
    expect(screen.getByText(/Expires in 1[45]:\d\d/)).toBeTruthy();
    expect(screen.queryByText("This payment window has closed.")).toBeNull();
    expect(screen.getByText(first.attempt.payment!.address)).toBeTruthy();
  });

  it("a device clock 16 minutes slow does not stretch a closed window; at zero it asks the worker", async () => {
    const real = Date.now();
    const first = withPayment({ expiresAt: new Date(real - 1000).toISOString() });
    first.updatedAt = new Date(real).toISOString();
    const expired = snapshot({
      seq: 3,
      canRetry: true,
      attempt: { ...snapshot().attempt, status: "expired", payment: first.attempt.payment },
    });
    vi.useFakeTimers({ now: real - 16 * 60_000, toFake: ["Date"] });
    const { worker } = setup({
      "POST /v1/checkouts": () => ok(first, 201),
      "GET /v1/checkouts/abcdefghijklmnopqrstuv": () => ok(expired),
    });
    // The worker's verdict arrives without waiting for the stream: "Try again".
    await screen.findByRole("button", { name: "Try again" });
    expect(worker.calls.some((c) => c.method === "GET" && c.path.endsWith("uv"))).toBe(true);
    expect(screen.queryByText("Send exactly")).toBeNull();
  });
});

describe("connection", () => {
  it("offline shows that it is reconnecting; back online it catches up at once", async () => {
    const processing = snapshot({
      seq: 5,
      attempt: { ...snapshot().attempt, status: "processing", payment: payment() },
    });
    const { worker } = setup({
      "POST /v1/checkouts": () => ok(withPayment({}), 201),
      "GET /v1/checkouts/abcdefghijklmnopqrstuv": () => ok(processing),
    });
    await screen.findAllByText("Waiting for your payment…");
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    act(() => {
      window.dispatchEvent(new Event("offline"));
    });
    expect((await screen.findByRole("status")).textContent).toBe("Connection lost — reconnecting…");
    act(() => {
      window.dispatchEvent(new Event("online"));
    });
    await screen.findAllByText("Payment detected — waiting for network confirmations.");
    expect(worker.calls.at(-1)?.path).toBe("/v1/checkouts/abcdefghijklmnopqrstuv");
    expect(screen.queryByText(/reconnecting/)).toBeNull();
  });

  it("a stream that keeps failing shows reconnecting; one planned close does not", async () => {
    setup({ "POST /v1/checkouts": () => ok(withPayment({}), 201) });
    await screen.findAllByText("Waiting for your payment…");
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    const es = FakeEventSource.instances[0]!;
    act(() => es.fail());
    expect(screen.queryByText(/reconnecting/)).toBeNull();
    act(() => es.fail());
    await screen.findByText("Connection lost — reconnecting…");
    act(() => es.open());
    await waitFor(() => expect(screen.queryByText(/reconnecting/)).toBeNull());
  });

  type Answer = Parameters<typeof fakeWorker>[0][string];
  /** The checkout open with its live link; the worker answers a currency choice with `answer`. */
  async function choiceAnswered(answer: Answer) {
    setup({
      "POST /v1/checkouts": () => ok(snapshot(), 201),
      "POST /v1/checkouts/abcdefghijklmnopqrstuv/currency": answer,
    });
    const choice = await screen.findByRole("button", { name: "BTC Bitcoin" });
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    return { choice, es: FakeEventSource.instances[0]! };
  }
  /** The live link goes down: two errors in a row, and the reconnecting line shows. */
  async function linkDown(es: FakeEventSource) {
    act(() => {
      es.fail();
      es.fail();
    });
    await screen.findByText("Connection lost — reconnecting…");
  }
  /** The live link answers again: the reconnecting line goes. */
  async function linkBack(es: FakeEventSource) {
    act(() => es.open());
    await waitFor(() => expect(screen.queryByText(/reconnecting/)).toBeNull());
  }
  const unreachable: Answer = () => {
    throw new TypeError("Failed to fetch");
  };
  const EXPIRED = "This checkout link has expired. Please reload the page.";

  it("a choice that could not reach the worker: its message goes once the worker answers again", async () => {
    // Seen in Chromium with the worker stopped mid-checkout: after it came back, "We cannot
    // reach the checkout service" stayed under a working live status until the next click.
    const { choice, es } = await choiceAnswered(unreachable);
    await linkDown(es);
    fireEvent.click(choice);
    await screen.findByText(/^We cannot reach the checkout service/);
    await linkBack(es);
    expect(screen.queryByText(/cannot reach/)).toBeNull();
    // The picker is still there to choose again.
    expect(screen.getByRole("button", { name: "BTC Bitcoin" })).toBeTruthy();
  });

  it("'cannot reach' met during the stream's planned reopen goes once the stream answers", async () => {
    // One error is the worker's 10-minute close: the link never counted as down.
    const { choice, es } = await choiceAnswered(unreachable);
    act(() => es.open());
    act(() => es.fail());
    fireEvent.click(choice);
    await screen.findByText(/^We cannot reach the checkout service/);
    act(() => es.open());
    await waitFor(() => expect(screen.queryByText(/cannot reach/)).toBeNull());
    expect(screen.getByRole("button", { name: "BTC Bitcoin" })).toBeTruthy();
  });

  it("a refusal met while the link is down stays once the link is back (only 'cannot reach' goes)", async () => {
    // The worker answered: its refusal still holds after the live link recovers.
    const { choice, es } = await choiceAnswered(() => refuse(401, "token_expired"));
    await linkDown(es);
    fireEvent.click(choice);
    await screen.findByText(EXPIRED);
    await linkBack(es);
    expect(screen.getByText(EXPIRED)).toBeTruthy();
  });

  it("a refusal met while the link is up stays through a later outage and recovery", async () => {
    const { choice, es } = await choiceAnswered(() => refuse(401, "token_expired"));
    act(() => es.open());
    fireEvent.click(choice);
    await screen.findByText(EXPIRED);
    await linkDown(es);
    await linkBack(es);
    expect(screen.getByText(EXPIRED)).toBeTruthy();
  });

  it("a refusal met while the link is up stays through the stream's planned reopen", async () => {
    const { choice, es } = await choiceAnswered(() => refuse(429, "rate_limited"));
    act(() => es.open());
    fireEvent.click(choice);
    const shown = (await screen.findByRole("alert")).textContent;
    // The worker's 10-minute close and EventSource's reconnect: the link never went down.
    act(() => {
      es.fail();
      es.open();
    });
    expect(screen.getByRole("alert").textContent).toBe(shown);
  });
});

describe("checkout:status", () => {
  it("fires once per new state: the stream repeating the opening state is not a new one", async () => {
    const first = snapshot({ seq: 1 });
    const { events } = setup({ "POST /v1/checkouts": () => ok(first, 201) });
    await screen.findByText("Cedar & Bean");
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    const es = FakeEventSource.instances[0]!;
    // The same `created` state again, under a later sequence number and clock.
    act(() => es.push({ ...first, seq: 2, updatedAt: new Date().toISOString() }));
    act(() => es.push({ ...withPayment({}), seq: 3 }));
    await screen.findByText("Send exactly");
    const statuses = events.filter((e) => e.name === "checkout:status");
    expect(statuses.map((e) => (e.detail as { seq: number }).seq)).toEqual([1, 3]);
  });
});
