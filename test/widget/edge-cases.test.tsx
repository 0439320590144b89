/**
 * Edge cases a shopper or a storefront can hit: stream rotation and polling back-off, hosted
 * mode after a pick on the service's page, odd locale tags, a refused clipboard, top-up double
 * clicks, racing address checks, the countdown at zero, refused currencies and foreign URLs.
 * Each test failed before its fix.
 */
import { readFileSync } from "node:fs";
import { act, fireEvent, render, screen, waitFor } from "@testing-library/preact";
import { encode } from "uqr";
import { describe, expect, it, vi } from "vitest";
import type { CheckoutSnapshot, DepositSnapshot } from "../../packages/contract/src/http-api.ts";
import { verifyAddress } from "../../widget/address-check.ts";
import { ApiFailure, createApi } from "../../widget/api.ts";
import { Checkout } from "../../widget/checkout.tsx";
import { translator } from "../../widget/i18n/index.ts";
import { follow, POLL_MS } from "../../widget/live.ts";
import { registerQrEncoder } from "../../widget/qr.ts";
import { TopUp } from "../../widget/topup.tsx";
import { safeUrl } from "../../widget/url.ts";
import { QrCode } from "../../widget/views/payment.tsx";
import { RefundForm } from "../../widget/views/refund-form.tsx";
import {
  BASE,
  CURRENCIES,
  depositSnapshot,
  FakeEventSource,
  fakeWorker,
  ok,
  payment,
  refuse,
  renderCheckout,
  snapshot,
  useWidgetTestDoubles,
} from "./fakes.ts";

const ID = "abcdefghijklmnopqrstuv";
const usdt = CURRENCIES[1]!;

const setup = (routes: Parameters<typeof fakeWorker>[0], locale = "en") =>
  renderCheckout(routes, { i18n: translator(locale) });

useWidgetTestDoubles();

describe("live status survives the worker's 10-minute stream rotation", () => {
  it("an open resets the error count: three normal rotations never switch to polling", async () => {
    vi.useFakeTimers();
    const poll = vi.fn(async () => snapshot());
    follow("https://x/events", poll, () => {}, vi.fn());
    const source = FakeEventSource.instances[0]!;
    for (let i = 0; i < 5; i++) {
      source.open();
      source.fail(); // the server closed the stream; the browser reconnects by itself
    }
    await vi.advanceTimersByTimeAsync(POLL_MS * 10);
    expect(poll).not.toHaveBeenCalled();
    expect(source.closed).toBe(false);
  });

  it("polling backs off after transient failures (3 s, 6 s, 12 s …)", async () => {
    vi.useFakeTimers();
    vi.stubGlobal("EventSource", undefined);
    const poll = vi.fn(async (): Promise<CheckoutSnapshot> => {
      throw new ApiFailure("network", "down");
    });
    follow("https://x/events", poll, () => {}, vi.fn());
    await vi.advanceTimersByTimeAsync(POLL_MS);
    expect(poll).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(POLL_MS * 2 - 1);
    expect(poll).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(poll).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(POLL_MS * 4);
    expect(poll).toHaveBeenCalledTimes(3);
  });

  it("a 404 while polling stops it and tells the shopper", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "setInterval", "clearTimeout", "clearInterval"] });
    const { worker, events } = setup({
      "POST /v1/checkouts": () => ok(snapshot(), 201),
      [`GET /v1/checkouts/${ID}`]: () => refuse(404, "not_found"),
    });
    await vi.waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    FakeEventSource.instances[0]!.fail(true);
    await vi.advanceTimersByTimeAsync(POLL_MS);
    await vi.waitFor(() => expect(screen.getByText(/no longer exists/)).toBeTruthy());
    expect(events.at(-1)).toMatchObject({ name: "checkout:error", detail: { code: "not_found" } });
    const polls = () => worker.calls.filter((c) => c.path === `/v1/checkouts/${ID}`).length;
    await vi.advanceTimersByTimeAsync(POLL_MS * 100);
    expect(polls()).toBe(1);
  });
});

describe("hosted mode after a pick on the service's page", () => {
  it("draws the QR and keeps the payment page link", async () => {
    setup({
      "POST /v1/checkouts": () =>
        ok(
          snapshot({ mode: "hosted", attempt: { ...snapshot().attempt, payment: payment() } }),
          201,
        ),
    });
    await screen.findByText("Send exactly");
    expect(screen.getByRole("link", { name: "Open payment page" })).toBeTruthy();
    await waitFor(() =>
      expect(
        screen.getByRole("img").querySelector("path")?.getAttribute("d")?.length,
      ).toBeGreaterThan(100),
    );
  });

  it("says so in text when the QR encoder could not load", () => {
    registerQrEncoder(undefined as never);
    try {
      const { rerender } = render(<QrCode text="x" label="QR" ready={false} failed="No QR" />);
      expect(screen.getByRole("img", { name: "QR" })).toBeTruthy();
      rerender(<QrCode text="x" label="QR" ready failed="No QR" />);
      expect(screen.getByText("No QR")).toBeTruthy();
      expect(screen.queryByRole("img")).toBeNull();
    } finally {
      registerQrEncoder(encode);
    }
  });
});

describe("locale tags", () => {
  it("a malformed tag ('de-') is English, not a RangeError", async () => {
    expect(translator("de-")).toMatchObject({ locale: "en", lang: "en" });
    setup({ "POST /v1/checkouts": () => ok(snapshot(), 201) }, "de-");
    await screen.findByText("$49.90");
  });

  it("a locale without a catalogue (af-ZA) formats numbers its way, with English texts", async () => {
    expect(translator("af-za")).toMatchObject({ locale: "af-ZA", lang: "en" });
    setup({ "POST /v1/checkouts": () => ok(snapshot(), 201) }, "af-ZA");
    await screen.findByText("Order total");
    expect(screen.getByText(/49,90/)).toBeTruthy();
  });
});

describe("copy buttons tell the truth", () => {
  it("a refused clipboard says so, visibly, and never 'Copied'", async () => {
    vi.stubGlobal("navigator", {
      ...navigator,
      clipboard: { writeText: async () => Promise.reject(new Error("denied")) },
    });
    setup({
      "POST /v1/checkouts": () =>
        ok(snapshot({ attempt: { ...snapshot().attempt, payment: payment() } }), 201),
    });
    const button = await screen.findByRole("button", { name: "Copy the address" });
    fireEvent.click(button);
    const note = await screen.findByText("Couldn't copy — select the text");
    expect(note.getAttribute("aria-live")).toBe("polite");
    expect(button.parentElement?.contains(note)).toBe(true);
    expect(screen.queryByText("Copied to clipboard")).toBeNull();
  });
});

describe("top-up", () => {
  const dep = depositSnapshot;
  const mount = (routes: Parameters<typeof fakeWorker>[0]) => {
    const worker = fakeWorker({ "GET /v1/currencies": () => ok(CURRENCIES), ...routes });
    vi.stubGlobal("fetch", worker.fetch);
    const events: { name: string; detail: unknown }[] = [];
    const view = render(
      <TopUp
        api={createApi(BASE)}
        token="a.e30.c"
        i18n={translator("en")}
        emit={(name, detail) => events.push({ name, detail })}
      />,
    );
    const deposits = () => worker.calls.filter((c) => c.path === "/v1/deposits").length;
    return { ...view, events, deposits };
  };

  it("a double click opens one deposit; an answer after unmount opens no stream", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const { unmount, deposits } = mount({
      "POST /v1/deposits": async () => {
        await gate;
        return ok(dep(), 201);
      },
    });
    const pick = await screen.findByRole("button", { name: "USDT Tether USD (TRC-20)" });
    fireEvent.click(pick);
    fireEvent.click(pick);
    unmount();
    release();
    // Preact runs passive cleanups after paint (≤ 35 ms): wait past it.
    await new Promise((r) => setTimeout(r, 60));
    expect(deposits()).toBe(1);
    expect(FakeEventSource.instances.filter((s) => !s.closed)).toHaveLength(0);
  });

  it("ignores an older or duplicate snapshot before any event; status once per new state, paid once", async () => {
    const { events } = mount({ "POST /v1/deposits": () => ok(dep({ seq: 2 }), 201) });
    fireEvent.click(await screen.findByRole("button", { name: "USDT Tether USD (TRC-20)" }));
    await screen.findAllByText("Waiting for your deposit…");
    const source = FakeEventSource.instances[0]!;
    const settlement = {
      received: "10",
      networkFee: "0.3",
      commission: "0.05",
      net: "9.65",
      source: "service" as const,
    };
    act(() => {
      source.push(dep({ seq: 1, status: "processing" }) as never);
      source.push(dep({ seq: 3, status: "completed", settlement }) as never);
      // A duplicate of seq 3 is ignored, whatever it says; seq 4 repeats the state shown.
      source.push(dep({ seq: 3, status: "processing" }) as never);
      source.push(dep({ seq: 4, status: "completed", settlement }) as never);
    });
    await screen.findAllByText("Credited 9.65 USDT.");
    expect(
      events
        .filter((e) => e.name === "checkout:status")
        .map((e) => (e.detail as DepositSnapshot).seq),
    ).toEqual([2, 3]);
    expect(events.filter((e) => e.name === "checkout:paid")).toHaveLength(1);
  });

  it("offers Retry after a transient failure (service busy)", async () => {
    let busy = true;
    const { deposits } = mount({
      "POST /v1/deposits": () => (busy ? refuse(503, "service_busy") : ok(dep(), 201)),
    });
    fireEvent.click(await screen.findByRole("button", { name: "USDT Tether USD (TRC-20)" }));
    await screen.findByText(/service is busy/);
    busy = false;
    fireEvent.click(screen.getByRole("button", { name: "Retry" }));
    await screen.findByText("Top up with Tether USD (TRC-20) on TRON");
    expect(deposits()).toBe(2);
  });
});

describe("refund address live check", () => {
  it("an older, slower check never overwrites the newer verdict", async () => {
    render(
      <RefundForm
        base={BASE}
        currency={usdt}
        sandbox={false}
        saved={null}
        i18n={translator("en")}
        onSave={async () => true}
      />,
    );
    const input = screen.getByLabelText("Refund address");
    fireEvent.input(input, { target: { value: "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU8" } }); // checksum: slow
    fireEvent.input(input, { target: { value: "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYj" } }); // mask: fast
    await new Promise((r) => setTimeout(r, 50));
    expect(document.querySelector("#cc-refund-error")?.textContent).toBe(
      "This is not a valid USDT address on TRON.",
    );
  });

  it("without crypto.subtle (http: page) the checksum is left to the worker", async () => {
    vi.stubGlobal("crypto", {});
    expect(await verifyAddress(BASE, usdt, "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU8", false)).toBe("ok");
    expect(await verifyAddress(BASE, usdt, "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYj", false)).toBe(
      "invalid",
    );
  });
});

describe("countdown at zero", () => {
  it("hides QR, wallet link and copy buttons; keeps the 'window closed' message", async () => {
    const past = new Date(Date.now() - 1000).toISOString();
    setup({
      "POST /v1/checkouts": () =>
        ok(
          snapshot({ attempt: { ...snapshot().attempt, payment: payment({ expiresAt: past }) } }),
          201,
        ),
    });
    await screen.findByText("This payment window has closed.");
    expect(screen.queryByRole("img")).toBeNull();
    expect(screen.queryByRole("link", { name: "Open in wallet" })).toBeNull();
    expect(screen.queryByRole("button", { name: /^Copy/ })).toBeNull();
  });
});

describe("a currency the service refused", () => {
  it("stays listed, disabled, with the reason", async () => {
    setup({
      "POST /v1/checkouts": () => ok(snapshot(), 201),
      [`POST /v1/checkouts/${ID}/currency`]: () => refuse(422, "amount_below_minimum"),
    });
    fireEvent.click(await screen.findByRole("button", { name: "BTC Bitcoin" }));
    const reason = "The amount is below the minimum this payment method accepts.";
    const button = await screen.findByRole("button", { name: `BTC ${reason}` });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    expect(button.textContent).toContain(reason);
    expect(
      (screen.getByRole("button", { name: "USDT Tether USD (TRC-20)" }) as HTMLButtonElement)
        .disabled,
    ).toBe(false);
  });
});

describe("hosted 'Try again'", () => {
  it("moves focus to the payment page link (there is no currency list)", async () => {
    const ended = snapshot({
      mode: "hosted",
      canRetry: true,
      attempt: { ...snapshot().attempt, status: "expired" },
    });
    setup({
      "POST /v1/checkouts": () => ok(ended, 201),
      [`POST /v1/checkouts/${ID}/retry`]: () =>
        ok(snapshot({ mode: "hosted", seq: 2, attempt: { ...snapshot().attempt, number: 2 } })),
    });
    fireEvent.click(await screen.findByRole("button", { name: "Try again" }));
    const link = await screen.findByRole("link", { name: "Open payment page" });
    await waitFor(() => expect(document.activeElement).toBe(link));
  });
});

describe("before a currency is chosen", () => {
  it("does not say it waits for a payment", async () => {
    setup({ "POST /v1/checkouts": () => ok(snapshot(), 201) });
    await screen.findAllByText("Not paid yet.");
    expect(screen.queryByText("Waiting for your payment…")).toBeNull();
  });
});

describe("URLs from the service", () => {
  it("only https: (or http: on loopback) reaches href/src", () => {
    expect(safeUrl("https://pay.example.com/p/1")).toBe("https://pay.example.com/p/1");
    expect(safeUrl("http://127.0.0.1:8787/p/1")).toBe("http://127.0.0.1:8787/p/1");
    expect(safeUrl("http://localhost/p")).toBe("http://localhost/p");
    for (const bad of [
      "javascript:alert(1)",
      "data:text/html,x",
      "http://evil.test/p",
      "http://localhost.evil.test/",
      null,
    ])
      expect(safeUrl(bad)).toBeUndefined();
  });

  it("a javascript: payment page or icon is never linked or loaded", async () => {
    const evil = "javascript:alert(1)";
    const worker = fakeWorker({
      "GET /v1/currencies": () =>
        ok(
          CURRENCIES.map((c, i) => ({
            ...c,
            imageUrl: i ? evil : "https://cdn.example.test/btc.svg",
          })),
        ),
      "POST /v1/checkouts": () =>
        ok(
          snapshot({ mode: "hosted", attempt: { ...snapshot().attempt, paymentPageUrl: evil } }),
          201,
        ),
    });
    vi.stubGlobal("fetch", worker.fetch);
    render(<Checkout api={createApi(BASE)} token="t" i18n={translator("en")} emit={() => {}} />);
    await screen.findByText(/Continue on the payment page/);
    expect(screen.queryByRole("link")).toBeNull();
  });

  it("an icon is shown only from an https: URL", async () => {
    const evil = "javascript:alert(1)";
    vi.stubGlobal(
      "fetch",
      fakeWorker({
        "POST /v1/checkouts": () => ok(snapshot(), 201),
        "GET /v1/currencies": () =>
          ok(
            CURRENCIES.map((c, i) => ({
              ...c,
              imageUrl: i ? evil : "https://cdn.example.test/btc.svg",
            })),
          ),
      }).fetch,
    );
    render(<Checkout api={createApi(BASE)} token="t2" i18n={translator("en")} emit={() => {}} />);
    await waitFor(() => expect(document.querySelectorAll("img")).toHaveLength(1));
    expect(document.querySelector("img")?.getAttribute("src")).toBe(
      "https://cdn.example.test/btc.svg",
    );
  });
});

describe("the script tag loaded as a module (no currentScript)", () => {
  it("takes the API origin from the widget.js script element", async () => {
    const script = document.createElement("script");
    script.type = "text/plain"; // present, not run
    script.setAttribute("src", "https://pay.example.test/widget.js");
    document.head.append(script);
    vi.resetModules();
    const defined = vi.fn();
    vi.doMock("../../widget/element.ts", () => ({ defineCheckoutElement: defined }));
    try {
      await import("../../widget/script-tag.ts");
      expect(defined).toHaveBeenCalledWith("https://pay.example.test");
    } finally {
      vi.doUnmock("../../widget/element.ts");
      script.remove();
    }
  });
});

describe("themes without light-dark()", () => {
  it("light by default; the same dark values for theme=dark and for a dark OS (unless theme=light)", () => {
    const css = readFileSync("widget/styles.css", "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
    expect(css).not.toContain("light-dark(");
    const block = (selector: string) => {
      const start = css.indexOf(`${selector} {`);
      expect(start).toBeGreaterThanOrEqual(0);
      return css.slice(start, css.indexOf("}", start)).match(/--cc-[\w-]+: #\w+/g) ?? [];
    };
    const light = block(":host");
    const dark = block(':host([theme="dark"])');
    expect(light).toHaveLength(10);
    expect(dark).toHaveLength(10);
    expect(css).toMatch(
      /@media \(prefers-color-scheme: dark\) \{\s*:host\(:not\(\[theme="light"\]\)\) \{/,
    );
    expect(block(':host(:not([theme="light"]))')).toEqual(dark);
  });
});
