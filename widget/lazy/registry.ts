/**
 * @module
 * Where on-demand view chunks register their component (a page global), read by the
 * stand-ins of `view.ts`. Import-free apart from `assets.ts`, so a chunk that registers
 * pulls in nothing else.
 */
import type { ComponentType } from "preact";
import { pageGlobal } from "../assets.ts";

// biome-ignore lint/suspicious/noExplicitAny: components of any props share one registry.
export type AnyView = ComponentType<any>;

/** The registered views by name. */
export const views = () => pageGlobal<Record<string, AnyView>>("__cryptoCheckoutViews", () => ({}));

/**
 * What a chunk calls when it runs.
 *
 * @example
 * registerView("topup", TopUp);
 */
export function registerView(name: string, view: AnyView): void {
  views()[name] = view;
}
