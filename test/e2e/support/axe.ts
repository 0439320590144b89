/**
 * @module
 * Runs axe-core inside a page (the file from node_modules, injected as a script) and returns
 * the serious and critical violations.
 */
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const AXE_PATH = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/** A violation, trimmed to what a failure message needs. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** Runs axe in the page with `options` and returns every violation, trimmed. */
async function runAxe(page: Page, options: object): Promise<AxeViolation[]> {
  await page.addScriptTag({ path: AXE_PATH });
  return page.evaluate(async (opts) => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ctx: Document,
            opts: object,
          ) => Promise<{
            violations: {
              id: string;
              impact: string | null;
              help: string;
              nodes: { target: unknown[] }[];
            }[];
          }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { ...opts, resultTypes: ["violations"] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => JSON.stringify(n.target)),
    }));
  }, options);
}

/**
 * @example
 * expect(await seriousViolations(page)).toEqual([]);
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  const all = await runAxe(page, {});
  return all.filter((v) => v.impact === "serious" || v.impact === "critical");
}

/**
 * The violations of the named axe rules, whatever their impact (`region` and `heading-order`
 * are "moderate", so `seriousViolations` does not report them).
 *
 * @example
 * expect(await ruleViolations(page, ["region", "heading-order"])).toEqual([]);
 */
export function ruleViolations(page: Page, rules: string[]): Promise<AxeViolation[]> {
  return runAxe(page, { runOnly: { type: "rule", values: rules } });
}
