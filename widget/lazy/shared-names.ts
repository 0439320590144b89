/**
 * @module
 * The contract between the script-tag bundle and its on-demand view chunks: per shared
 * module, the names a chunk may import from it (see `shared.ts`). Import-free, so the build
 * script reads it too.
 */

/** Page global the bundle fills and chunks read. */
export const SHARED_GLOBAL = "__cryptoCheckoutShared";

/**
 * Per shared module, the names chunks may import from it. The views on the in-page path are
 * classes (`Component`), as widget.js's own; `options` is what the hooks runtime hooks into:
 * widget.js has no hooks, so the first chunk that uses them (top-up mode) installs them on the
 * bundle's Preact, once, under `HOOKS_KEY`.
 */
export const SHARED_NAMES = {
  preact: ["Component", "options", "createElement", "Fragment"],
  "api.ts": ["ApiFailure"],
} as const;

/** Where in `SHARED_GLOBAL` the first chunk puts the hooks runtime (`useEffect`, `useRef`, `useState`). */
export const HOOKS_KEY = "preact/hooks";
