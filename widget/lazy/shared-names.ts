/**
 * @module
 * The contract between the script-tag bundle and its on-demand view chunks: per shared
 * module, the names a chunk may import from it (see `shared.ts`). Import-free, so the build
 * script reads it too.
 */

/** Page global the bundle fills and chunks read. */
export const SHARED_GLOBAL = "__cryptoCheckoutShared";

/**
 * Per shared module, the names chunks may import from it. `preact`'s `options` is what the
 * hooks runtime hooks into: widget.js has no hooks (its components are classes), so the first
 * chunk that runs installs them on the bundle's Preact, once, under `HOOKS_KEY`.
 */
export const SHARED_NAMES = {
  preact: ["options"],
  "preact/jsx-runtime": ["Fragment", "jsx", "jsxs"],
  "api.ts": ["ApiFailure"],
} as const;

/** Where in `SHARED_GLOBAL` the first chunk puts the hooks runtime (`useEffect`, `useRef`, `useState`). */
export const HOOKS_KEY = "preact/hooks";
