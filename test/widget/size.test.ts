/**
 * The build itself: the size budget of the script-tag bundle (what an in-page shopper
 * downloads before the currency picker), what travels in the on-demand chunks instead (views,
 * their stylesheets, their English texts), and self-contained ESM types.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { h, options, render } from "preact";
import { encode } from "uqr";
import { describe, expect, it, vi } from "vitest";
import { BUDGET_GZIP, widgetSizes } from "../../scripts/widget-size.ts";
import { createApi } from "../../widget/api.ts";
import { enFirst } from "../../widget/i18n/en-first.ts";
import {
  enHosted,
  enPayment,
  enRefund,
  enStatus,
  enTopUp,
  enWallet,
} from "../../widget/i18n/en-views.ts";
import { translator } from "../../widget/i18n/index.ts";
import { views } from "../../widget/lazy/registry.ts";
import { shareRuntime } from "../../widget/lazy/shared.ts";
import { registerQrEncoder } from "../../widget/qr.ts";

const BASE = "https://pay.example.test";

const built = (file: string) => readFileSync(`dist/${file}`, "utf8");

describe("widget build", () => {
  it("widget.js (JS + inlined CSS) is at most 12 KB gzip; the views, their CSS and texts are chunks", () => {
    execFileSync("node", ["scripts/build-widget.ts"], { stdio: "inherit" });
    const sizes = widgetSizes();
    const gzip = (file: string) => sizes.find((s) => s.file === file)!.gzip;
    const main = gzip("public/widget.js");
    console.log(`widget.js: ${main} B gzip; + i18n/de.js ${gzip("public/i18n/de.js")} B gzip`);
    expect(BUDGET_GZIP).toBe(12_288);
    expect(main).toBeLessThanOrEqual(BUDGET_GZIP);
    const bundle = built("public/widget.js");
    // The picker's stylesheet is inside the bundle (no separate request, no light-DOM <link>);
    // the payment panel's and the refund form's rules come with their chunks.
    expect(bundle).toContain("--cc-accent");
    expect(bundle).toContain(".choice{");
    for (const rule of [".copy-row{", ".qr{", ".refund{", "input{"])
      expect(bundle).not.toContain(rule);
    // What comes after the picker is on demand: the payment instructions, the hosted page's
    // view, the refund form and top-up mode are separate chunks with their own stylesheet and
    // English texts, and the bundle renders none of their markup itself.
    const chunks: [string, string, string, string[]][] = [
      // payment.js also brings the later states' status line and notes with their texts.
      [
        "payment.js",
        'class:"payment"',
        ".copy-row{",
        [...Object.values(enPayment), ...Object.values(enStatus)].flatMap(texts),
      ],
      ["hosted.js", 'class:"hosted details"', ".qr{", Object.values(enHosted).flatMap(texts)],
      ["refund.js", 'class:"refund"', ".refund{", Object.values(enRefund)],
      ["topup.js", "__cryptoCheckoutShared", ".copy-row{", Object.values(enTopUp)],
      // Paying from a wallet (x402): discovery, chain, signature and the route, on demand.
      ["wallet.js", 'class:"wallet"', ".wallet{", Object.values(enWallet)],
    ];
    for (const [file, marker, rule, texts] of chunks) {
      const chunk = built(`public/${file}`);
      expect(chunk).toContain(marker);
      expect(chunk).toContain(rule);
      for (const text of texts) expect(chunk).toContain(text);
      if (marker.startsWith("class:")) expect(bundle).not.toContain(marker);
    }
    // English: the bundle carries the first-paint texts and asks for no key it lacks (a key
    // reaches `t()` as a quoted argument, or as a value of the error table).
    for (const text of Object.values(enFirst)) expect(bundle).toContain(text);
    const moved = [enPayment, enStatus, enHosted, enRefund, enTopUp, enWallet].flatMap((set) =>
      Object.keys(set),
    );
    for (const key of moved) {
      expect(bundle).not.toMatch(new RegExp(`(?:[\\w$]\\(|:)"${key}"[,)}]`));
      expect(bundle).not.toContain(en(key));
    }
    // A locale script carries its own texts only, never English.
    expect(built("public/i18n/de.js")).not.toContain(enFirst.chooseCurrency);
    // widget.js and the views on the in-page path render with classes only: no hooks runtime
    // (`__H` is where hooks keep their state on a component). Every view chunk borrows the
    // bundle's Preact (no core of its own: no `forceUpdate`); top-up mode carries hooks it
    // installs only if the page has none yet (see the next test for the behaviour).
    expect(bundle).not.toContain("__H");
    for (const file of ["payment.js", "hosted.js", "refund.js", "topup.js", "wallet.js"]) {
      const chunk = built(`public/${file}`);
      expect(chunk).not.toContain("forceUpdate");
      if (file === "topup.js") expect(chunk).toContain('["preact/hooks"]??=');
      else expect(chunk).not.toContain("__H");
    }
    // The ESM types stand alone: the contract is inlined, nothing points back into the repo.
    const types = built("widget.esm.d.ts");
    expect(types).not.toMatch(/from "\.\.?\//);
    expect(types).toContain("export interface CheckoutSnapshot");
    expect(types).toContain('"checkout:paid": CustomEvent<');
  }, 60_000);

  it("a chunk with hooks renders on the bundle's Preact and installs hooks once per page", async () => {
    // What widget.js does before it loads a chunk: lend its Preact (options, JSX runtime).
    shareRuntime();
    registerQrEncoder(encode);
    const shared = () =>
      (globalThis as unknown as Record<string, Record<string, unknown>>).__cryptoCheckoutShared!;
    const wrapped = () => (options as unknown as Record<string, unknown>).__r; // hooks' render hook
    const bare = wrapped();
    new Function(built("public/topup.js"))();
    const installed = wrapped();
    const hooks = shared()["preact/hooks"];
    expect(installed).not.toBe(bare);
    expect(hooks).toBeDefined();
    // A second chunk carrying hooks (here the same one again) takes the page's copy: the render
    // hook is not wrapped twice, so every hook on the page runs on one runtime.
    new Function(built("public/topup.js"))();
    expect(wrapped()).toBe(installed);
    expect(shared()["preact/hooks"]).toBe(hooks);
    // The chunk's view works with them: its effect asks for the currencies, its state shows them.
    const listed = [{ code: "BTC", name: "Bitcoin", networkName: "Bitcoin", imageUrl: null }];
    vi.stubGlobal("fetch", async () => new Response(JSON.stringify({ data: listed })));
    const host = document.createElement("div");
    document.body.append(host);
    const emit = () => {};
    const props = { api: createApi(BASE), token: "a.e30.c", i18n: translator("en"), emit };
    render(h(views().topup!, props), host);
    await vi.waitFor(() =>
      expect(host.querySelector("button.choice")?.textContent).toContain("Bitcoin"),
    );
    render(null, host);
    vi.unstubAllGlobals();
  });
});

/** The English text of a moved key. */
function en(key: string): string {
  return (
    { ...enPayment, ...enStatus, ...enHosted, ...enRefund, ...enTopUp } as Record<string, unknown>
  )[key] as string;
}

/** A message's texts: a text, or each variant of a plural. */
const texts = (message: string | Record<string, string>) =>
  typeof message === "string" ? [message] : Object.values(message);
