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

/**
 * @example
 * expect(await seriousViolations(page)).toEqual([]);
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ path: AXE_PATH });
  return page.evaluate(async () => {
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
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        targets: v.nodes.map((n) => JSON.stringify(n.target)),
      }));
  });
}

/**
 * The violations of the named axe rules, whatever their impact (`region` and `heading-order`
 * are "moderate", so `seriousViolations` does not report them).
 *
 * @example
 * expect(await ruleViolations(page, ["region", "heading-order"])).toEqual([]);
 */
export async function ruleViolations(page: Page, rules: string[]): Promise<AxeViolation[]> {
  await page.addScriptTag({ path: AXE_PATH });
  return page.evaluate(async (ids) => {
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
    const result = await axe.run(document, {
      runOnly: { type: "rule", values: ids },
      resultTypes: ["violations"],
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => JSON.stringify(n.target)),
    }));
  }, rules);
}
