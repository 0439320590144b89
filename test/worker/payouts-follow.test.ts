/**
 * A payout's withdrawal follow: one withdrawal read that changes the payout's status is one
 * admitted read (`core/converge/followed.ts` `admitRead`), so the next reconciliation read comes
 * the schedule's first step after it (`core/converge/schedule.ts` `FIRST_READ_MS`), not a
 * doubled gap (the read once recorded twice looked like a second, unchanged read).
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { PayoutView } from "../../packages/contract/src/http-api.ts";
import { FIRST_READ_MS } from "../../worker/core/converge/schedule.ts";
import type { Env } from "../../worker/edge/env.ts";
import { payoutStub } from "../../worker/payout/payout-stub.ts";
import { deliver, deliveriesFor, merchant, sandbox, uniqueSub } from "./helpers.ts";
import { SHOPPER_TRON as TRON } from "./orders.ts";

/** The withdrawal's row in the payout's `upstream_objects` (its schedule, as stored). */
async function followedRow(orderId: string, withdrawalId: string) {
  return runInDurableObject(
    payoutStub(env as Env, orderId),
    (_o: unknown, state) =>
      state.storage.sql
        .exec<{ status: string; gap_ms: number; read_at: number; next_read_at: number | null }>(
          "SELECT status, gap_ms, read_at, next_read_at FROM upstream_objects WHERE kind = 'withdrawal' AND id = ?",
          withdrawalId,
        )
        .toArray()[0],
  );
}

describe("a payout's withdrawal follow", () => {
  it("after one status-changing withdrawal read, the next read is the schedule's first step away", async () => {
    const orderId = uniqueSub("gap");
    await merchant("/v1/payouts", {
      method: "POST",
      body: JSON.stringify({ orderId, cryptoCurrencyCode: "TRX", address: TRON, amount: "40" }),
    });
    const committed = await merchant(`/v1/payouts/${orderId}/commit`, { method: "POST" });
    const id = ((await committed.json()) as { data: PayoutView }).data.withdrawal!.id;
    await sandbox(`/sandbox/withdrawals/${id}/simulate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ action: "processing" }),
    });
    const [processing] = (await deliveriesFor(orderId)).filter(
      (d) => d.event === "withdrawal.statusChanged",
    );
    expect((await deliver(processing!)).status).toBe(200);

    const row = await followedRow(orderId, id);
    expect(row?.status).toBe("processing");
    // Measured against the object's own clock: the read time it stored.
    expect([row?.gap_ms, Number(row?.next_read_at) - Number(row?.read_at)]).toEqual([
      FIRST_READ_MS,
      FIRST_READ_MS,
    ]);
  });
});
