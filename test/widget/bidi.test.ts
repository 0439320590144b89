/**
 * "42 USDT" keeps its order in right-to-left texts (`widget/i18n/bidi.ts`); left-to-right texts
 * and the copied amount are never touched. The visual check is Chromium's
 * (`test/e2e/shopper-states.test.ts`, Arabic and Hebrew).
 */
import { describe, expect, it } from "vitest";
import { isolateAmounts } from "../../widget/i18n/bidi.ts";

const LRI = "\u2066";
const PDI = "\u2069";

describe("isolateAmounts", () => {
  it("wraps each amount and its ticker in RTL text, with any script's digits and separators", () => {
    expect(isolateAmounts("تم استلام 10 من 42 USDT.", "rtl")).toBe(
      `تم استلام 10 من ${LRI}42 USDT${PDI}.`,
    );
    expect(isolateAmounts("שלחו 0.00232812 ETH ועוד 1,234.5 USDC", "rtl")).toBe(
      `שלחו ${LRI}0.00232812 ETH${PDI} ועוד ${LRI}1,234.5 USDC${PDI}`,
    );
    expect(isolateAmounts("٤٢٫٥ USDT", "rtl")).toBe(`${LRI}٤٢٫٥ USDT${PDI}`);
  });

  it("leaves LTR text, amounts without a ticker and words in capitals alone", () => {
    expect(isolateAmounts("Send 42 USDT", "ltr")).toBe("Send 42 USDT");
    expect(isolateAmounts("ينتهي خلال 14:59", "rtl")).toBe("ينتهي خلال 14:59");
    expect(isolateAmounts("شبكة TRON فقط", "rtl")).toBe("شبكة TRON فقط");
    expect(isolateAmounts("TRC-20 USDT", "rtl")).toBe("TRC-20 USDT");
  });
});

describe("RTL catalogues", () => {
  it("isolate every amount placed beside its ticker", async () => {
    for (const tag of ["ar", "he", "fa", "ur"]) {
      const messages = Object.values((await import(`../../widget/i18n/${tag}.ts`))[tag]);
      const texts = messages.flatMap((m) =>
        typeof m === "string" ? [m] : Object.values(m as object),
      );
      const beside = texts.filter((m) => /\{\w+\} \{code\}/.test(String(m)));
      expect(beside.length, tag).toBeGreaterThan(5);
      for (const text of beside) {
        expect(String(text), tag).toMatch(/\u2066\{\w+\} \{code\}\u2069/);
        expect(String(text).replace(/\u2066\{\w+\} \{code\}\u2069/g, ""), tag).not.toMatch(
          /\{\w+\} \{code\}/,
        );
      }
    }
  });
});
