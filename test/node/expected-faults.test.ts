/**
 * A green `npm test` keeps deliberate faults quiet and lets everything else through
 * (`test/expected-faults.ts`): only output carrying the marker is dropped.
 */
import { describe, expect, it } from "vitest";
import { EXPECTED_FAULT, expectedFault, quietExpectedFaults } from "../expected-faults.ts";

describe("expected faults", () => {
  it("drops only writes that carry the marker; a real uncaught exception still shows", () => {
    const written: string[] = [];
    const stream = {
      write: ((chunk: string) => written.push(chunk) > 0) as NodeJS.WriteStream["write"],
    };
    quietExpectedFaults([stream]);
    quietExpectedFaults([stream]); // Installed twice: still one filter, nothing lost.
    stream.write(`uncaught exception; jsg.Error: ${expectedFault("restart")}\nstack: …\n`);
    stream.write("uncaught exception; jsg.Error: TypeError: x is undefined\n");
    stream.write("✓ a test\n");
    expect(written).toEqual([
      "uncaught exception; jsg.Error: TypeError: x is undefined\n",
      "✓ a test\n",
    ]);
    expect(expectedFault("reset")).toBe(`${EXPECTED_FAULT} reset`);
  });
});
