/**
 * Which language a shopper gets and how numbers read in it: resolution (the element's `locale`,
 * then the page's `lang`, then the browser's languages, best match), plurals by
 * `Intl.PluralRules`, countdowns and amounts in the locale's digits while a copy button copies
 * the plain exact amount, and a locale switch that reaches the live region.
 */
import { fireEvent, screen, waitFor } from "@testing-library/preact";
import { afterEach, describe, expect, it, vi } from "vitest";
import { defineCheckoutElement } from "../../widget/element.ts";
import { countdown, formatCrypto, minutesLeft } from "../../widget/format.ts";
import { ar } from "../../widget/i18n/ar.ts";
import { de } from "../../widget/i18n/de.ts";
import { fr } from "../../widget/i18n/fr.ts";
import { registerLocale, translator } from "../../widget/i18n/index.ts";
import { plural } from "../../widget/i18n/plural.ts";
import { resolveLocale } from "../../widget/i18n/resolve.ts";
import {
  BASE,
  CURRENCIES,
  fakeWorker,
  ok,
  payment,
  renderCheckout,
  snapshot,
  useWidgetTestDoubles,
} from "./fakes.ts";

useWidgetTestDoubles();

describe("locale resolution", () => {
  // The registry's own list (`locales.ts`): the resolution rules against the real catalogues.
  const resolve = (...tags: (string | null)[]) => resolveLocale(tags);

  it("takes the element's locale, then the page's lang, then the browser's languages", () => {
    expect(resolve("fr", "de", "es")).toMatchObject({ catalogue: "fr", locale: "fr" });
    expect(resolve(null, "de", "es")).toMatchObject({ catalogue: "de" });
    expect(resolve("", "  ", "es-MX", "de")).toMatchObject({ catalogue: "es", locale: "es-MX" });
  });

  it("best match: region and script fall back to what exists", () => {
    expect(resolve("pt-BR").catalogue).toBe("pt-BR");
    expect(resolve("pt-PT").catalogue).toBe("pt");
    expect(resolve("pt-AO").catalogue).toBe("pt");
    expect(resolve("zh-Hant-TW").catalogue).toBe("zh-Hant");
    expect(resolve("zh-TW").catalogue).toBe("zh-Hant");
    expect(resolve("zh-HK").catalogue).toBe("zh-Hant");
    expect(resolve("zh").catalogue).toBe("zh-Hans");
    expect(resolve("zh-CN").catalogue).toBe("zh-Hans");
    expect(resolve("de-CH")).toMatchObject({ catalogue: "de", locale: "de-CH" });
    expect(resolve("no").catalogue).toBe("nb");
    expect(resolve("iw").catalogue).toBe("he");
  });

  it("a tag without a catalogue gives way to the next; none at all is English with the first valid tag", () => {
    expect(resolve("sw", "fr-CA")).toMatchObject({ catalogue: "fr", locale: "fr-CA" });
    expect(resolve("de-", "sw")).toEqual({ catalogue: "en", locale: "sw", dir: "ltr" });
    expect(resolve(null, "", "x-")).toEqual({ catalogue: "en", locale: "en", dir: "ltr" });
  });

  it("Arabic, Hebrew, Persian and Urdu are right to left; others left to right", () => {
    for (const tag of ["ar", "he", "fa", "ur", "ar-EG", "fa-IR"])
      expect(resolve(tag).dir).toBe("rtl");
    for (const tag of ["de", "ja", "zh-TW", "hi"]) expect(resolve(tag).dir).toBe("ltr");
  });

  it("the element falls back to the browser's languages when neither it nor the page says", async () => {
    vi.stubGlobal(
      "fetch",
      fakeWorker({
        "POST /v1/checkouts": () => ok(snapshot(), 201),
        "GET /v1/currencies": () => ok(CURRENCIES),
      }).fetch,
    );
    vi.stubGlobal("navigator", { ...navigator, languages: ["fr-CA", "en"] });
    registerLocale("fr", fr);
    document.documentElement.lang = "";
    defineCheckoutElement(BASE);
    document.body.innerHTML = `<crypto-checkout token="t" api="${BASE}"></crypto-checkout>`;
    const el = document.querySelector("crypto-checkout")!;
    await waitFor(() => expect(el.shadowRoot?.textContent).toContain(fr.orderTotal));
    expect(el.shadowRoot?.querySelector(".cc-root")?.getAttribute("lang")).toBe("fr-CA");
    document.body.innerHTML = "";
  });
});

describe("plurals", () => {
  it("pick the variant Intl.PluralRules selects, with the count in the locale's digits", () => {
    registerLocale("ar", ar);
    const english = translator("en");
    expect(plural(english, "minutesLeft", 1)).toBe("1 minute left to pay");
    expect(plural(english, "minutesLeft", 14)).toBe("14 minutes left to pay");
    const arabic = translator("ar");
    expect(plural(arabic, "minutesLeft", 2)).toBe(ar.minutesLeft.two);
    expect(plural(arabic, "minutesLeft", 3)).toBe(
      ar.minutesLeft.few?.replace("{count}", new Intl.NumberFormat("ar").format(3)),
    );
    expect(plural(arabic, "minutesLeft", 11)).toContain(new Intl.NumberFormat("ar").format(11));
  });
});

describe("numbers in the shopper's locale", () => {
  const now = Date.parse("2026-11-22T10:00:00Z");

  it("countdowns use the locale's digits; screen readers get whole minutes", () => {
    expect(countdown("2026-11-22T10:14:05Z", now)).toBe("14:05");
    expect(countdown("2026-11-22T10:14:05Z", now, "fa")).toBe("۱۴:۰۵");
    expect(countdown("2026-11-22T11:00:01Z", now, "de")).toBe("1:00:01");
    expect(minutesLeft("2026-11-22T10:14:05Z", now)).toBe(15);
    expect(minutesLeft("2026-11-22T09:59:59Z", now)).toBeNull();
  });

  it("crypto amounts are shown with the locale's digits and separators, every digit kept", () => {
    expect(formatCrypto("1234.000000000000000001", 18, "de")).toBe("1.234,000000000000000001");
    expect(formatCrypto("0.5", 6, "fa")).toBe("۰٫۵");
  });

  it("the copy button copies the plain exact amount, whatever the display", async () => {
    const copied: string[] = [];
    vi.stubGlobal("navigator", {
      ...navigator,
      clipboard: { writeText: async (text: string) => void copied.push(text) },
    });
    const p = payment({ amount: "1234.567891", remaining: "1234.567891" });
    renderCheckout(
      {
        "POST /v1/checkouts": () =>
          ok(snapshot({ attempt: { ...snapshot().attempt, payment: p } }), 201),
      },
      { i18n: translator("fa") },
    );
    // No Persian catalogue here: English texts, Persian digits (the numbers follow the tag).
    await screen.findByText("۱٬۲۳۴٫۵۶۷۸۹۱ USDT");
    fireEvent.click(screen.getByRole("button", { name: "Copy the amount" }));
    await waitFor(() => expect(copied).toEqual(["1234.567891"]));
    fireEvent.click(screen.getByRole("button", { name: "Copy the address" }));
    await waitFor(() => expect(copied[1]).toBe(p.address));
  });
});

describe("a locale switch on a mounted widget", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("the live region speaks the new language at the currency picker (issue 23, item 4)", async () => {
    registerLocale("de", de);
    const { relocalise } = renderCheckout({ "POST /v1/checkouts": () => ok(snapshot(), 201) });
    await screen.findByRole("button", { name: "BTC Bitcoin" });
    const live = document.querySelector(".sr-only[aria-live=polite]")!;
    await waitFor(() => expect(live.textContent).toBe("Not paid yet."));
    relocalise(translator("de"));
    await screen.findByText(de.chooseCurrency);
    expect(live.textContent).toBe(de.statusNew);
  });

  it("the copy note follows too", async () => {
    vi.stubGlobal("navigator", { ...navigator, clipboard: { writeText: async () => {} } });
    registerLocale("de", de);
    const p = payment();
    const { relocalise } = renderCheckout({
      "POST /v1/checkouts": () =>
        ok(snapshot({ attempt: { ...snapshot().attempt, payment: p } }), 201),
    });
    fireEvent.click(await screen.findByRole("button", { name: "Copy the address" }));
    await screen.findByText("Copied to clipboard");
    relocalise(translator("de"));
    await screen.findByText(de.copied);
  });
});
