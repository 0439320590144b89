/**
 * @module
 * Clearing the shared sandbox's injected faults between worker tests, written once. The worker
 * test files share one sandbox (one file at a time), so a fault a failed test left armed would
 * hit the next test's request. A file that opts in clears after each of its tests; every file
 * still ends with no fault left unspent (`test/worker/faults-spent.setup.ts`).
 */
import { afterEach } from "vitest";
import { sandbox } from "../worker/helpers.ts";

/**
 * Removes every fault armed in the sandbox.
 *
 * @example
 * afterEach(async () => { vi.useRealTimers(); await clearFaults(); });
 */
export async function clearFaults(): Promise<void> {
  await sandbox("/sandbox/faults", { method: "DELETE" });
}

/**
 * Registers, in the calling test file, an `afterEach` that clears the sandbox's faults.
 *
 * @example
 * clearFaultsAfterEach(); // at the top level of a worker test file
 */
export function clearFaultsAfterEach(): void {
  afterEach(clearFaults);
}
