/**
 * A green `npm test` keeps deliberate faults quiet and lets everything else through
 * (`test/expected-faults.ts`): only output carrying the marker is dropped.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  AFTERMATH_MS,
  EXPECTED_FAULT,
  expectedFault,
  faultFilter,
  quietExpectedFaults,
} from "../expected-faults.ts";

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

  // workerd's words for calls an abort broke, as a green run printed them.
  const LOST =
    "uncaught exception; source = Uncaught (in promise); stack = Error: Network connection lost.\n";
  const SEND =
    "uncaught exception; exception = rust/worker/ffi.rs:110: disconnected: client error (SendRequest)\nstack: workerd@28a3c60\n";

  it("drops workerd's disconnect reports that follow a marked fault, within the window", () => {
    let clock = 1_000;
    const drop = faultFilter(() => clock);
    expect(drop(LOST)).toBe(false); // no deliberate fault before it: shown
    expect(drop(`uncaught exception; jsg.Error: ${expectedFault("restart")}`)).toBe(true);
    clock += 100;
    expect([drop(LOST), drop(SEND)]).toEqual([true, true]);
    // A real failure in the same window still shows.
    expect(drop("uncaught exception; TypeError: x is undefined\n")).toBe(false);
    expect(drop("✓ a test\n")).toBe(false);
    clock += AFTERMATH_MS + 1;
    expect(drop(LOST)).toBe(false); // long after the fault: shown again
    // A test that points at a closed port announces it first (`announceExpectedFault`).
    const REFUSED =
      "exception = rust/worker/ffi.rs:110: disconnected: Connection refused (os error 111)\n";
    expect(drop(REFUSED)).toBe(false);
    expect(drop(`${expectedFault("the service is unreachable")}\n`)).toBe(true);
    expect([drop(REFUSED), drop(LOST)]).toEqual([true, true]);
  });

  it("one window spans both streams (workerd may report on the other one)", () => {
    let clock = 0;
    const out: string[] = [];
    const err: string[] = [];
    const stream = (into: string[]) => ({
      write: ((chunk: string) => into.push(chunk) > 0) as NodeJS.WriteStream["write"],
    });
    const [stdout, stderr] = [stream(out), stream(err)];
    quietExpectedFaults([stdout, stderr], () => clock);
    stderr.write(LOST);
    stdout.write(`uncaught exception; ${expectedFault("reset")}\n`);
    clock += 10;
    stderr.write(LOST);
    stdout.write(SEND);
    expect([out, err]).toEqual([[], [LOST]]);
  });

  it("every Durable Object a test restarts on purpose is restarted with a marked reason", () => {
    // A restart with an unmarked reason prints its uncaught exception in a green run (found: the
    // simulation's reconciler restart, 68 lines in one CI log).
    const root = join(import.meta.dirname, "..");
    const unmarked: string[] = [];
    for (const file of readdirSync(root, { recursive: true, encoding: "utf8" })) {
      if (!file.endsWith(".ts")) continue;
      const text = readFileSync(join(root, file), "utf8");
      for (const match of text.matchAll(/state\.abort\(([^)]*)\)/g)) {
        if (!match[1]!.startsWith("expectedFault(")) unmarked.push(`${file}: ${match[0]}`);
      }
    }
    expect(unmarked.filter((line) => !line.startsWith("expected-faults.ts"))).toEqual([]);
  });
});
