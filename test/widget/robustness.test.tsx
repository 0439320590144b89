/**
 * The shopper's path under less friendly conditions: keyboard focus after each action, payment
 * instructions hidden once a payment is detected, the worker refusing an address, transient
 * failures with a way out, error codes in plain words, a locale switch mid-checkout, and a
 * stream the browser gave up on.
 */
import { fireEvent, render, screen, waitFor } from "@testing-library/preact";
import { describe, expect, it, vi } from "vitest";
import type { CheckoutSnapshot } from "../../packages/contract/src/http-api.ts";
import { createApi } from "../../widget/api.ts";
import { Checkout } from "../../widget/checkout.tsx";
import { de } from "../../widget/i18n/de.ts";
import { registerLocale, type Translator, translator } from "../../widget/i18n/index.ts";
import { POLL_MS } from "../../widget/live.ts";
import {
  attempted,
  BASE,
  CURRENCIES,
  FakeEventSource,
  fakeWorker,
  ok,
  opening,
  payment,
  renderCheckout,
  snapshot,
  useWidgetTestDoubles,
} from "./fakes.ts";

const ID = "abcdefghijklmnopqrstuv";
const locked = (over: Parameters<typeof payment>[0] = {}) => attempted("created", over, { seq: 2 });

const setup = (routes: Parameters<typeof fakeWorker>[0], i18n: Translator = translator("en")) =>
  renderCheckout(routes, { i18n });

useWidgetTestDoubles();

describe("keyboard path", () => {
  it("focus moves to the payment heading after a pick, and to the choice after 'Change currency'", async () => {
    setup({
      "POST /v1/checkouts": () => ok(snapshot(), 201),
      [`POST /v1/checkouts/${ID}/currency`]: () => ok(locked()),
    });
    const pick = await screen.findByRole("button", { name: "USDT Tether USD (TRC-20)" });
    pick.focus();
    fireEvent.click(pick);
    const heading = await screen.findByRole("heading", { name: "Send your payment" });
    await waitFor(() => expect(document.activeElement).toBe(heading));

    fireEvent.click(screen.getByRole("button", { name: "Change currency" }));
    const choose = await screen.findByRole("heading", { name: "Choose how you pay" });
    await waitFor(() => expect(document.activeElement).toBe(choose));
    // Every currency is a button again, reachable by Tab.
    expect(document.querySelectorAll("button.choice")).toHaveLength(3);
  });

  it("'Change currency' is offered only while nothing has been received", async () => {
    setup(opening(attempted("partially_paid", { received: "10", remaining: "39.9" })));
    await screen.findByText("Send the remaining");
    expect(screen.queryByRole("button", { name: "Change currency" })).toBeNull();
  });
});

describe("after a payment is detected", () => {
  it.each(["processing", "suspended"] as const)(
    "%s: the send-instructions are hidden, so nobody pays twice",
    async (status) => {
      setup({ "POST /v1/checkouts": () => ok(locked(), 201) });
      await screen.findByText("Send exactly");
      FakeEventSource.instances[0]!.push(
        snapshot({ seq: 3, attempt: { ...snapshot().attempt, status, payment: payment() } }),
      );
      await waitFor(() => expect(screen.queryByText("Send exactly")).toBeNull());
      expect(screen.queryByRole("link", { name: "Open in wallet" })).toBeNull();
      expect(screen.queryByRole("img")).toBeNull();
    },
  );
});

describe("refund address refused by the worker", () => {
  it("shows the worker's verdict next to the field, not as a page error", async () => {
    const over = attempted(
      "overpaid",
      {},
      { final: true, orderState: "paid", amountOverpaid: "5.00" },
    );
    const { events } = setup({
      "POST /v1/checkouts": () => ok(over, 201),
      [`POST /v1/checkouts/${ID}/refund-address`]: () => ({
        status: 400,
        body: { error: { code: "invalid_address", message: "bad" } },
      }),
    });
    const input = await screen.findByLabelText("Refund address");
    fireEvent.input(input, { target: { value: "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7" } });
    fireEvent.click(screen.getByRole("button", { name: "Save refund address" }));
    const problem = await screen.findByText("This is not a valid USDT address on TRON.");
    expect(problem.id).toBe("cc-refund-error");
    expect(input.getAttribute("aria-invalid")).toBe("true");
    expect(events.some((e) => e.name === "checkout:error")).toBe(false);
  });
});

describe("errors in plain words", () => {
  it.each([
    ["not_found", 404, /no longer exists/],
    ["order_paid", 409, /already paid/],
    ["attempt_open", 409, /still open/],
    ["upstream_error", 502, /busy/],
    ["forbidden_origin", 403, /This site may not use this checkout/],
  ])("%s (%i)", async (code, status, text) => {
    const { events } = setup({
      "POST /v1/checkouts": () => ({ status, body: { error: { code, message: "x" } } }),
    });
    await screen.findByText(text);
    expect(events.find((e) => e.name === "checkout:error")?.detail).toEqual({
      code,
      message: expect.stringMatching(text),
      // The worker's own message, for the developer; the shopper never sees it.
      developerMessage: "x",
    });
    expect(screen.queryByText("x")).toBeNull();
  });

  it("a worker answering non-JSON is a generic message, not a throw", async () => {
    vi.stubGlobal("fetch", async () => new Response("<html>502</html>", { status: 502 }));
    render(<Checkout api={createApi(BASE)} token="t" i18n={translator("en")} emit={() => {}} />);
    await screen.findByText(/Something went wrong/);
  });

  it("an unreachable worker offers 'Retry', which opens the checkout once it is back", async () => {
    let up = false;
    const worker = fakeWorker({
      "POST /v1/checkouts": () => ok(snapshot(), 201),
      "GET /v1/currencies": () => ok(CURRENCIES),
    });
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      if (!up) throw new TypeError("Failed to fetch");
      return worker.fetch(input, init);
    });
    render(<Checkout api={createApi(BASE)} token="t" i18n={translator("en")} emit={() => {}} />);
    await screen.findByText(/cannot reach the checkout service/);
    up = true;
    fireEvent.click(screen.getByRole("button", { name: "Retry" }));
    await screen.findByText("Cedar & Bean");
    expect(screen.queryByText(/cannot reach/)).toBeNull();
  });

  it("a bad token gets no 'Retry' (retrying cannot help)", async () => {
    setup({
      "POST /v1/checkouts": () => ({
        status: 401,
        body: { error: { code: "token_invalid", message: "x" } },
      }),
    });
    await screen.findByText(/checkout link is not valid/);
    expect(screen.queryByRole("button", { name: "Retry" })).toBeNull();
  });
});

describe("announcements", () => {
  it("a locale loaded after the first paint also speaks in the live region", async () => {
    registerLocale("de", de);
    const { relocalise } = setup({ "POST /v1/checkouts": () => ok(locked(), 201) });
    await screen.findByText("Send exactly");
    relocalise(translator("de"));
    await screen.findByText(de.sendExactly);
    FakeEventSource.instances[0]!.push(
      snapshot({
        seq: 3,
        attempt: { ...snapshot().attempt, status: "processing", payment: payment() },
      }),
    );
    const live = document.querySelector(".sr-only[aria-live=polite]")!;
    await waitFor(() => expect(live.textContent).toBe(de.statusProcessing));
  });

  it("a second copy is announced again (the live region's text changes)", async () => {
    vi.stubGlobal("navigator", { ...navigator, clipboard: { writeText: async () => {} } });
    setup({ "POST /v1/checkouts": () => ok(locked(), 201) });
    const button = await screen.findByRole("button", { name: "Copy the address" });
    const live = button.parentElement!.querySelector("[aria-live=polite]")!;
    fireEvent.click(button);
    await waitFor(() => expect(live.textContent?.trim()).toBe("Copied to clipboard"));
    const first = live.textContent;
    fireEvent.click(button);
    await waitFor(() => expect(live.textContent).not.toBe(first));
    expect(live.textContent?.trim()).toBe("Copied to clipboard");
  });
});

describe("live status when the stream is refused", () => {
  it("polls right away when the browser gives up on the EventSource (HTTP error)", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "setInterval", "clearTimeout", "clearInterval"] });
    let paid = false;
    const final: CheckoutSnapshot = snapshot({
      seq: 4,
      final: true,
      orderState: "paid",
      attempt: { ...snapshot().attempt, status: "paid", payment: payment() },
    });
    const { worker } = setup({
      "POST /v1/checkouts": () => ok(locked(), 201),
      [`GET /v1/checkouts/${ID}`]: () => ok(paid ? final : locked()),
    });
    await vi.waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    const source = FakeEventSource.instances[0]!;
    source.fail(true);
    expect(source.closed).toBe(true);
    paid = true;
    await vi.advanceTimersByTimeAsync(POLL_MS);
    await vi.waitFor(() =>
      expect(screen.getAllByText("Paid — thank you!").length).toBeGreaterThan(0),
    );
    const polls = () => worker.calls.filter((c) => c.path === `/v1/checkouts/${ID}`).length;
    const after = polls();
    // Final: polling stops too.
    await vi.advanceTimersByTimeAsync(POLL_MS * 3);
    expect(polls()).toBe(after);
  });
});
