/**
 * The build itself: the size budget of the script-tag bundle (what an in-page shopper
 * downloads before the currency picker), what travels in the on-demand chunks instead (views,
 * their stylesheets, their English texts), and self-contained ESM types.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { h, options, render } from "preact";
import { encode } from "uqr";
import { describe, expect, it } from "vitest";
import { BUDGET_GZIP, widgetSizes } from "../../scripts/widget-size.ts";
import { enFirst } from "../../widget/i18n/en-first.ts";
import { enHosted, enPayment, enRefund, enStatus, enTopUp } from "../../widget/i18n/en-views.ts";
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
        [...Object.values(enPayment), ...Object.values(enStatus)],
      ],
      ["hosted.js", 'class:"hosted details"', ".qr{", Object.values(enHosted)],
      ["refund.js", 'class:"refund"', ".refund{", Object.values(enRefund)],
      ["topup.js", "__cryptoCheckoutShared", ".copy-row{", Object.values(enTopUp)],
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
    const moved = [enPayment, enStatus, enHosted, enRefund, enTopUp].flatMap((set) =>
      Object.keys(set),
    );
    for (const key of moved) {
      expect(bundle).not.toMatch(new RegExp(`(?:[\\w$]\\(|:)"${key}"[,)}]`));
      expect(bundle).not.toContain(en(key));
    }
    // A locale script carries its own texts only, never English.
    expect(built("public/i18n/de.js")).not.toContain(enFirst.chooseCurrency);
    // widget.js renders with classes only: no hooks runtime (`__H` is where hooks keep their
    // state on a component). Each view chunk borrows the bundle's Preact (no core of its own:
    // no `forceUpdate`) and carries hooks it installs only if the page has none yet (see the
    // next test for the behaviour).
    expect(bundle).not.toContain("__H");
    for (const file of ["payment.js", "hosted.js", "refund.js", "topup.js"]) {
      const chunk = built(`public/${file}`);
      expect(chunk).not.toContain("forceUpdate");
      expect(chunk).toContain('["preact/hooks"]??=');
    }
    // The ESM types stand alone: the contract is inlined, nothing points back into the repo.
    const types = built("widget.esm.d.ts");
    expect(types).not.toMatch(/from "\.\.?\//);
    expect(types).toContain("export interface CheckoutSnapshot");
    expect(types).toContain('"checkout:paid": CustomEvent<');
  }, 60_000);

  it("view chunks render on the bundle's Preact and share one hooks runtime, installed once", async () => {
    // What widget.js does before it loads a chunk: lend its Preact (options, JSX runtime).
    shareRuntime();
    registerQrEncoder(encode);
    const wrapped = () => (options as unknown as Record<string, unknown>).__r; // hooks' render hook
    const bare = wrapped();
    new Function(built("public/hosted.js"))();
    const installed = wrapped();
    expect(installed).not.toBe(bare);
    const hooks = (globalThis as unknown as Record<string, Record<string, unknown>>)
      .__cryptoCheckoutShared!["preact/hooks"];
    new Function(built("public/payment.js"))();
    // The second chunk took the first one's hooks: the render hook is not wrapped twice.
    expect(wrapped()).toBe(installed);
    expect(
      (globalThis as unknown as Record<string, Record<string, unknown>>).__cryptoCheckoutShared![
        "preact/hooks"
      ],
    ).toBe(hooks);
    // A chunk's view keeps state with those hooks: "Pay on your phone" draws the QR code.
    const { hosted } = views();
    const host = document.createElement("div");
    document.body.append(host);
    render(
      h(hosted!, { url: "https://pay.example.test/p/1", base: BASE, i18n: translator("en") }),
      host,
    );
    host.querySelector<HTMLButtonElement>("button.link")!.click();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(host.querySelector(".phone svg path")).not.toBeNull();
    render(null, host);
  });
});

/** The English text of a moved key. */
function en(key: string): string {
  return (
    { ...enPayment, ...enStatus, ...enHosted, ...enRefund, ...enTopUp } as Record<string, string>
  )[key]!;
}
