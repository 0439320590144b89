/**
 * Every locale of the registry (`widget/i18n/locales.ts`) is complete and really translated:
 * each key of English, nothing else; texts where English has texts and plurals where it has
 * plurals; the same `{placeholders}`; no text left in English (beyond tokens that are the same in
 * every language: currency codes, `QR`, placeholders); and plural variants exactly the
 * categories `Intl.PluralRules` gives for the locale's tag. The checker is tested on broken
 * catalogues first, so a green run means the catalogues passed, not that nothing was checked.
 */
import { describe, expect, it } from "vitest";
import { en, type Messages } from "../../widget/i18n/en.ts";
import { CATALOGUES, exportName, LOCALES, RTL } from "../../widget/i18n/locales.ts";

/**
 * Tokens that read the same in every language. A translated text may equal English only if it
 * is made of these (plus placeholders, digits, punctuation and spaces), e.g. "USDT", "QR".
 */
const SAME_IN_EVERY_LANGUAGE = ["USDT", "BTC", "ETH", "TRX", "BNB", "TON", "QR", "OK"];

const placeholders = (text: string) => new Set(text.match(/\{\w+\}/g) ?? []);
const sameSet = (a: Set<string>, b: Set<string>) =>
  a.size === b.size && [...a].every((x) => b.has(x));

/** Only shared tokens, placeholders, digits, punctuation and spaces: may equal English. */
function languageFree(text: string): boolean {
  let rest = text.replace(/\{\w+\}/g, " ");
  for (const token of SAME_IN_EVERY_LANGUAGE) rest = rest.replaceAll(token, " ");
  return !/\p{L}/u.test(rest);
}

/** What is wrong with the catalogue `messages` for `tag` (empty: nothing). */
function catalogueProblems(tag: string, messages: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const english = en as Record<string, string | Record<string, string>>;
  const categories = new Set<string>(new Intl.PluralRules(tag).resolvedOptions().pluralCategories);
  for (const key of Object.keys(messages))
    if (!(key in english)) problems.push(`${tag}.${key}: not an English key`);
  for (const [key, reference] of Object.entries(english)) {
    const value = messages[key];
    if (value === undefined) {
      problems.push(`${tag}.${key}: missing`);
      continue;
    }
    if (typeof reference === "string") {
      if (typeof value !== "string" || !value.trim()) {
        problems.push(`${tag}.${key}: must be a non-empty text`);
        continue;
      }
      if (!sameSet(placeholders(value), placeholders(reference)))
        problems.push(`${tag}.${key}: placeholders ${[...placeholders(value)]} ≠ English's`);
      if (value === reference && !languageFree(value))
        problems.push(`${tag}.${key}: still English ("${value}")`);
      continue;
    }
    // A plural: exactly the locale's categories, each a text using only English's placeholders.
    if (typeof value !== "object" || value === null) {
      problems.push(`${tag}.${key}: must be a plural (an object of variants)`);
      continue;
    }
    const variants = value as Record<string, unknown>;
    const given = new Set(Object.keys(variants));
    if (!sameSet(given, categories))
      problems.push(
        `${tag}.${key}: plural variants [${[...given]}] ≠ Intl.PluralRules("${tag}") [${[...categories]}]`,
      );
    const allowed = new Set(Object.values(reference).flatMap((v) => [...placeholders(v)]));
    const englishTexts = new Set(Object.values(reference));
    for (const [category, text] of Object.entries(variants)) {
      if (typeof text !== "string" || !text.trim()) {
        problems.push(`${tag}.${key}.${category}: must be a non-empty text`);
        continue;
      }
      for (const p of placeholders(text))
        if (!allowed.has(p)) problems.push(`${tag}.${key}.${category}: unknown placeholder ${p}`);
      if (englishTexts.has(text) && !languageFree(text))
        problems.push(`${tag}.${key}.${category}: still English ("${text}")`);
    }
  }
  return problems;
}

const load = async (tag: string) => {
  const module = (await import(`../../widget/i18n/${tag}.ts`)) as Record<string, Messages>;
  return module[exportName(tag)];
};

describe("the catalogue checker", () => {
  const german = () => load("de") as Promise<Record<string, unknown>>;

  it("passes a complete translated catalogue", async () => {
    expect(catalogueProblems("de", await german())).toEqual([]);
  });

  it("fails on a missing key, an extra key and a lost placeholder", async () => {
    const { copy: _, ...rest } = await german();
    expect(catalogueProblems("de", { ...rest, extra: "x" })).toEqual([
      "de.extra: not an English key",
      "de.copy: missing",
    ]);
    const broken = { ...(await german()), sendOnly: "Nur {code} senden." };
    expect(catalogueProblems("de", broken)).toEqual([
      "de.sendOnly: placeholders {code} ≠ English's",
    ]);
  });

  it("fails on English left in a translated locale, but not on shared tokens", async () => {
    const left = { ...(await german()), orderTotal: en.orderTotal };
    expect(catalogueProblems("de", left)).toEqual(['de.orderTotal: still English ("Order total")']);
    expect(languageFree("{amount} USDT")).toBe(true);
    expect(languageFree("QR: {code}")).toBe(true);
    expect(languageFree("Copy {code}")).toBe(false);
  });

  it("fails on plural variants other than the locale's Intl.PluralRules categories", async () => {
    const de = await german();
    const polishLike = { ...de, minutesLeft: { one: "a", few: "b", many: "c", other: "d" } };
    expect(catalogueProblems("de", polishLike)).toEqual([
      'de.minutesLeft: plural variants [one,few,many,other] ≠ Intl.PluralRules("de") [one,other]',
    ]);
    const text = { ...de, minutesLeft: "Noch {count} Minuten" };
    expect(catalogueProblems("de", text)).toEqual([
      "de.minutesLeft: must be a plural (an object of variants)",
    ]);
  });
});

describe("the registry", () => {
  it("lists canonical, unique tags; English first; RTL ones are in it", () => {
    expect(LOCALES[0]).toBe("en");
    expect(new Set(LOCALES).size).toBe(LOCALES.length);
    for (const tag of LOCALES) expect(Intl.getCanonicalLocales(tag)[0]).toBe(tag);
    for (const tag of RTL.filter((t) => LOCALES.includes(t)))
      expect(["ar", "he", "fa", "ur"]).toContain(tag);
    expect(exportName("pt-BR")).toBe("ptBR");
    expect(exportName("zh-Hant")).toBe("zhHant");
  });
});

describe.each(CATALOGUES)("locale %s", (tag) => {
  it("is complete, translated, and its plurals follow Intl.PluralRules", async () => {
    const messages = await load(tag);
    expect(messages, `widget/i18n/${tag}.ts exports ${exportName(tag)}`).toBeTruthy();
    expect(catalogueProblems(tag, messages as unknown as Record<string, unknown>)).toEqual([]);
  });
});

describe("the refund-too-small note", () => {
  // `{minimum}` is the smallest refund that can be sent: the minimum payout plus the network
  // fee (`CheckoutSnapshot.attempt.payment.refund`), never the fee alone. Every catalogue says
  // so inside the amount's parenthesis ("(11 USDT, network fee included)"), where each once
  // named the amount itself the fee.
  it.each(["en", ...CATALOGUES])("%s says {minimum} includes the fee", async (tag) => {
    const text = tag === "en" ? en.refundTooSmall : (await load(tag))!.refundTooSmall;
    const inside = /[(（]([^)）]*\{minimum\}[^)）]*)[)）]/.exec(text)?.[1] ?? "";
    const besides = inside.replace("{minimum} {code}", "").replace(/[\s,،，\u2066-\u2069]/g, "");
    expect(besides.length, text).toBeGreaterThan(2);
  });
});
