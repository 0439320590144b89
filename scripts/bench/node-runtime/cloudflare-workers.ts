/**
 * @module
 * A stand-in for `cloudflare:workers` so the worker's own modules run in Node for profiling
 * (`scripts/bench/profile-node.ts`): `DurableObject` keeps `ctx` and `env`, and `env` is the
 * object the harness fills with its bindings before it imports the worker. Profiling only:
 * never used by the worker, its tests or the bench's figures.
 */

/** The bindings; the harness assigns into it before importing the worker. */
export const env: Record<string, unknown> = {};

/** The base class the worker's Durable Objects extend. */
export class DurableObject<E = unknown> {
  ctx: unknown;
  env: E;
  constructor(ctx: unknown, bindings: E) {
    this.ctx = ctx;
    this.env = bindings;
  }
}
