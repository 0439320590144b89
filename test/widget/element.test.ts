/**
 * `<crypto-checkout>` itself (`widget/element.ts`): defined once, an open shadow root, composed
 * events, right to left for Arabic, `theme` restyling without touching the checkout, and one
 * re-render per real change of any other attribute.
 */
import { waitFor } from "@testing-library/preact";
import { encode } from "uqr";
import { afterEach, describe, expect, it, vi } from "vitest";
import { defineCheckoutElement } from "../../widget/element.ts";
import { ar } from "../../widget/i18n/ar.ts";
import { registerLocale } from "../../widget/i18n/index.ts";
import { registerQrEncoder } from "../../widget/qr.ts";
import { BASE, CURRENCIES, FakeEventSource, fakeWorker, snapshot } from "./fakes.ts";

afterEach(() => {
  document.body.innerHTML = "";
  vi.unstubAllGlobals();
});

// The QR encoder is an on-demand script in production; here it is registered up front.
registerQrEncoder(encode);

function stubWorker() {
  const worker = fakeWorker({
    "POST /v1/checkouts": () => ({ status: 201, body: { data: snapshot() } }),
    "GET /v1/currencies": () => ({ status: 200, body: { data: CURRENCIES } }),
  });
  vi.stubGlobal("fetch", worker.fetch);
  vi.stubGlobal("EventSource", FakeEventSource);
  FakeEventSource.instances = [];
  return worker;
}

describe("<crypto-checkout>", () => {
  it("is defined once even when the script loads twice", () => {
    defineCheckoutElement(BASE);
    expect(() => defineCheckoutElement(BASE)).not.toThrow();
    expect(customElements.get("crypto-checkout")).toBeTruthy();
  });

  it("renders in an open shadow root, calls the api attribute's origin, and dispatches composed events", async () => {
    const worker = stubWorker();
    defineCheckoutElement("https://default.example.test");
    const statuses: unknown[] = [];
    document.addEventListener("checkout:status", (e) => statuses.push((e as CustomEvent).detail));
    document.body.innerHTML = `<crypto-checkout token="t.k.n" api="${BASE}"></crypto-checkout>`;
    const el = document.querySelector("crypto-checkout")!;
    await waitFor(() => expect(el.shadowRoot?.textContent).toContain("Cedar & Bean"));
    expect(el.shadowRoot?.querySelector("style")?.textContent).toContain("--cc-accent");
    // Storefront CSS cannot reach inside; the widget's markup is not in the light DOM.
    expect(el.children).toHaveLength(0);
    expect(worker.calls[0]?.path).toBe("/v1/checkouts");
    await waitFor(() => expect(statuses).toHaveLength(1));
    expect((statuses[0] as { id: string }).id).toBe("abcdefghijklmnopqrstuv");
  });

  it("Arabic renders right to left", async () => {
    stubWorker();
    registerLocale("ar", ar);
    defineCheckoutElement(BASE);
    document.body.innerHTML = `<crypto-checkout token="t" api="${BASE}" locale="ar"></crypto-checkout>`;
    const el = document.querySelector("crypto-checkout")!;
    await waitFor(() => expect(el.shadowRoot?.textContent).toContain("إجمالي الطلب"));
    expect(el.getAttribute("dir")).toBe("rtl");
    expect(el.shadowRoot?.querySelector(".cc-root")?.getAttribute("dir")).toBe("rtl");
  });
});

describe("<crypto-checkout> attributes", () => {
  it("changing `theme` only restyles: no new POST, no new stream, the same checkout", async () => {
    const worker = stubWorker();
    defineCheckoutElement(BASE);
    document.body.innerHTML = `<crypto-checkout token="t" api="${BASE}" theme="light"></crypto-checkout>`;
    const el = document.querySelector("crypto-checkout")!;
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    const card = el.shadowRoot!.querySelector(".card")!;
    const background = () => getComputedStyle(card).backgroundColor;
    expect(background()).toBe("#ffffff");
    const calls = worker.calls.length;
    el.setAttribute("theme", "dark");
    await new Promise((r) => setTimeout(r, 60));
    expect(background()).toBe("#15181d");
    el.removeAttribute("theme");
    el.setAttribute("theme", "light");
    await new Promise((r) => setTimeout(r, 60));
    expect(background()).toBe("#ffffff");
    expect(worker.calls.length).toBe(calls);
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(FakeEventSource.instances[0]!.closed).toBe(false);
    // Not remounted: the very element rendered first is still there.
    expect(el.shadowRoot!.querySelector(".card")).toBe(card);
  });

  it("re-renders once per real change of another attribute", async () => {
    const worker = stubWorker();
    defineCheckoutElement(BASE);
    document.body.innerHTML = `<crypto-checkout token="t" api="${BASE}"></crypto-checkout>`;
    const el = document.querySelector("crypto-checkout")!;
    await waitFor(() => expect(el.shadowRoot?.textContent).toContain("Cedar & Bean"));
    const opens = () => worker.calls.filter((c) => c.path === "/v1/checkouts");
    const before = opens().length;
    el.setAttribute("token", "t2");
    el.setAttribute("token", "t2");
    await waitFor(() => expect(opens().length).toBe(before + 1));
    await new Promise((r) => setTimeout(r, 60));
    expect(opens().length).toBe(before + 1);
    expect(opens().at(-1)?.body).toEqual({ token: "t2" });
  });
});
