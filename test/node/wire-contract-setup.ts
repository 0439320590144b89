/**
 * Setup of every node test file (vitest `setupFiles`): observes everything any sandbox of the
 * file sends (API answers and webhook bodies, `demo/sandbox/wire-observer.ts`) and, after each
 * test, checks it against the service's published wire format (`test/contract/`). A test
 * whose sandbox answered anything the SDK's types do not allow fails with the list.
 */
import { afterAll, afterEach } from "vitest";
import { observeWire, type WireObservation } from "../../demo/sandbox/wire-observer.ts";
import { wireViolations } from "../contract/check-wire.ts";

const seen: WireObservation[] = [];
let checkedCount = 0;

/**
 * How many observations this file has made so far (checked or waiting for the next check):
 * the contract test asserts that a sandbox call is seen.
 */
export function observedCount(): number {
  return checkedCount + seen.length;
}

observeWire((o) => {
  // Bounded: a test sending more than this many is checked in slices as it goes.
  if (seen.length >= 10_000) check();
  seen.push(o);
});

function check(): void {
  const batch = seen.splice(0);
  checkedCount += batch.length;
  const violations = wireViolations(batch);
  if (violations.length > 0) {
    throw new Error(
      `the sandbox sent ${violations.length} answer(s) the service's SDK does not allow:\n${violations.slice(0, 20).join("\n")}`,
    );
  }
}

afterEach(check);
afterAll(check);
