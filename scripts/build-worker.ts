/**
 * @module
 * `npm run build:worker`, and wrangler.toml's `[build] command`: wrangler runs it before every
 * `wrangler deploy` and `wrangler dev` (and again in `wrangler dev` when `worker/` changes), so
 * every one of them runs the same artifact, `dist/worker/index.js` (`worker-build.ts`).
 * No network: esbuild and terser from node_modules.
 */
import { writeWorkerArtifact } from "./worker-build.ts";

await writeWorkerArtifact();
