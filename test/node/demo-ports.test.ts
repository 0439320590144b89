/**
 * @module
 * The demo runner's port reservations (`demo/run/ports.ts`): stacks started side by side (the
 * e2e files next to the worker tests' workerd, the bench) never get a port another stack or a
 * process binding port 0 can take between the pick and the bind.
 */
import { spawn } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reservePorts } from "../../demo/run/ports.ts";

const RESERVATIONS = join(tmpdir(), "crypto-checkout-ports");
const EPHEMERAL_FROM = 32_768;

describe("reservePorts", () => {
  it("picks distinct ports below the ephemeral range, each reserved under this pid", async () => {
    const reserved = await reservePorts(4);
    try {
      expect(new Set(reserved.ports).size).toBe(4);
      for (const port of reserved.ports) {
        expect(port).toBeGreaterThanOrEqual(20_000);
        expect(port).toBeLessThan(EPHEMERAL_FROM);
        expect(readFileSync(join(RESERVATIONS, String(port)), "utf8")).toBe(String(process.pid));
      }
    } finally {
      reserved.release();
    }
  });

  it("never hands the same port to two pickers running at once", async () => {
    const all = await Promise.all(Array.from({ length: 8 }, () => reservePorts(3)));
    try {
      const ports = all.flatMap((r) => r.ports);
      expect(new Set(ports).size).toBe(24);
    } finally {
      for (const r of all) r.release();
    }
  });

  it("release gives the ports back", async () => {
    const reserved = await reservePorts(2);
    const [port] = reserved.ports;
    reserved.release();
    expect(() => readFileSync(join(RESERVATIONS, String(port)), "utf8")).toThrow(/ENOENT/);
    reserved.release(); // idempotent
  });

  it("refuses a start outside the range", async () => {
    await expect(reservePorts(1, { startAt: 40_000 })).rejects.toThrow(RangeError);
  });

  it("takes over a reservation whose owner died, and respects one whose owner lives", async () => {
    const dead = spawn(process.execPath, ["-e", ""]);
    const deadPid = dead.pid!;
    await new Promise((r) => dead.once("exit", r));
    const probe = await reservePorts(2);
    const [stalePort, livePort] = probe.ports as [number, number];
    probe.release();
    writeFileSync(join(RESERVATIONS, String(stalePort)), String(deadPid));
    // PID 1 always lives; a reservation it holds is never taken.
    writeFileSync(join(RESERVATIONS, String(livePort)), "1");
    try {
      const stale = await reservePorts(1, { startAt: stalePort });
      expect(stale.ports).toEqual([stalePort]);
      expect(readFileSync(join(RESERVATIONS, String(stalePort)), "utf8")).toBe(String(process.pid));
      stale.release();
      const live = await reservePorts(1, { startAt: livePort });
      expect(live.ports).not.toContain(livePort);
      live.release();
      expect(readFileSync(join(RESERVATIONS, String(livePort)), "utf8")).toBe("1");
    } finally {
      rmSync(join(RESERVATIONS, String(livePort)), { force: true });
    }
  });

  it("skips a port someone bound without reserving it", async () => {
    const probe = await reservePorts(1);
    const [taken] = probe.ports as [number];
    probe.release();
    const server = createServer();
    await new Promise<void>((r) => server.listen({ port: taken, host: "127.0.0.1" }, r));
    try {
      const r = await reservePorts(2, { startAt: taken });
      r.release();
      expect(r.ports).not.toContain(taken);
      expect(r.ports).toHaveLength(2);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
