/**
 * @module
 * The contract between the script-tag bundle and its on-demand view chunks: per shared
 * module, the names a chunk may import from it (see `shared.ts`). Import-free, so the build
 * script reads it too.
 */

/** Page global the bundle fills and chunks read. */
export const SHARED_GLOBAL = "__cryptoCheckoutShared";

/** Per shared module, the names chunks may import from it. */
export const SHARED_NAMES = {
  "preact/jsx-runtime": ["Fragment", "jsx", "jsxs"],
  "preact/hooks": ["useEffect", "useRef", "useState"],
  "api.ts": ["ApiFailure"],
} as const;
