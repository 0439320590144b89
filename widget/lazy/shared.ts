/**
 * @module
 * What the script-tag bundle lends its on-demand view chunks (`payment.js`, `hosted.js`,
 * `refund.js`, `topup.js`): one Preact (its `options`, and `createElement` and `Fragment`,
 * which JSX compiles to) and the `ApiFailure` class. A chunk with its own copy of Preact would render with hooks bound to another
 * instance (they would throw), and its own `ApiFailure` would fail `instanceof` on errors
 * thrown by the bundle's API client. The hooks runtime is not lent: widget.js and the views
 * on the in-page path render with classes only, and a chunk that uses hooks (top-up mode)
 * carries them behind a guard, so the first such chunk installs them on the bundle's `options`
 * and any later one uses that one copy (`scripts/build-widget.ts`).
 *
 * `SHARED_NAMES` (`shared-names.ts`) is the contract: `scripts/build-widget.ts` compiles each
 * listed import of a chunk to a read of this page global (an import of an unlisted name fails
 * the build), and `shareRuntime` fills it (a listed name it lacks fails the typecheck).
 */

import { Component, createElement, Fragment, options } from "preact";
import { ApiFailure } from "../api.ts";
import { pageGlobal } from "../assets.ts";
import { SHARED_GLOBAL, type SHARED_NAMES } from "./shared-names.ts";

type Shared = {
  [M in keyof typeof SHARED_NAMES]: Record<(typeof SHARED_NAMES)[M][number], unknown>;
};

/** Lends the bundle's modules to chunks (idempotent; the first widget on a page wins). */
export function shareRuntime(): void {
  pageGlobal<Shared>(SHARED_GLOBAL, () => ({
    preact: { Component, options, createElement, Fragment },
    "api.ts": { ApiFailure },
  }));
}
