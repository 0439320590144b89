/**
 * @module
 * Run-time assertions of the invariants the money path promises (TigerBeetle style): a broken
 * one is a bug, never an input to handle, so it throws at once (rolling back the transaction
 * it happens in) and is logged as an error, naming the invariant. Tests and the simulation
 * fail loudly on it instead of on a symptom several steps later.
 *
 * Invariant of this module: the error's message starts with `invariant broken: <name>`, and
 * carries no secret (only amounts, statuses and ids of the object that broke it), so it
 * survives a Durable Object RPC boundary and can be matched by the simulation.
 */

/** The message prefix every broken invariant carries (matched by the simulation). */
export const INVARIANT_BROKEN = "invariant broken";

/**
 * A broken run-time invariant: a bug in the worker, not a failure of the service or the input.
 *
 * @example
 * throw new InvariantBroken("applied-money-never-decreases", "fiat 10.00 → 9.00");
 */
export class InvariantBroken extends Error {
  /** The invariant's name, e.g. `one-order-paid`. */
  readonly invariant: string;

  constructor(invariant: string, detail: string) {
    super(`${INVARIANT_BROKEN}: ${invariant} (${detail})`);
    this.name = "InvariantBroken";
    this.invariant = invariant;
  }
}

/**
 * Throws `InvariantBroken` (and logs it at error level) unless `ok`. `detail` is built only
 * when the invariant is broken, so a passing check costs one comparison.
 *
 * @example
 * assertInvariant(cmp(after, before) >= 0, "applied-money-never-decreases", () => `${before} → ${after}`);
 */
export function assertInvariant(ok: boolean, invariant: string, detail: () => string): asserts ok {
  if (ok) return;
  const error = new InvariantBroken(invariant, detail());
  console.error(
    JSON.stringify({
      level: "error",
      event: "invariant.broken",
      invariant,
      message: error.message,
    }),
  );
  throw error;
}
