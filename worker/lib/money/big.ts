/**
 * @module
 * The one `big.js` constructor the money module uses.
 *
 * Invariants:
 * - `strict` mode: constructing from a JS `number` throws, so a float can never sneak in;
 * - a private constructor (`Big()`), so no other code can change its `DP`/`RM` behind our back;
 * - only division and rounding depend on `DP`/`RM`; both are set explicitly by the caller in
 *   `arith.ts`/`rounding.ts` right before use (synchronous, so no interleaving is possible).
 *   Multiplication, addition and subtraction in big.js are exact.
 */
import BigDefault from "big.js";

/** Private big.js constructor: strict (no numbers), 60 decimal places for division by default. */
export const Big = BigDefault();
Big.strict = true;
Big.DP = 60;
Big.RM = Big.roundHalfEven;
// Never switch to exponential notation in toString(); toFixed() is used anyway.
Big.NE = -1_000_000;
Big.PE = 1_000_000;

export type BigValue = InstanceType<typeof Big>;

/** Zero, for comparisons (strict mode rejects the number literal `0`). */
export const ZERO: BigValue = new Big("0");
