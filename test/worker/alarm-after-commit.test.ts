/**
 * Deposit and payout objects set the outbox alarm after their write committed and *await* it,
 * like the order object: a call that enqueued a merchant notification answers only once the
 * alarm is set (a floating promise could fail unseen or land after the answer).
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { DepositObject } from "../../worker/deposit/deposit-object.ts";
import type { Env } from "../../worker/edge/env.ts";
import type { PayoutObject } from "../../worker/payout/payout-object.ts";
import { payoutStub } from "../../worker/payout/payout-stub.ts";
import {
  deliveriesFor,
  merchant,
  postJson,
  sandbox,
  token,
  uniqueIp,
  uniqueSub,
} from "./helpers.ts";
import { SHOPPER_TRON as TRON } from "./orders.ts";

/** Replaces the object host's scheduleAlarm by a slow one; `done()` says whether it finished. */
function slowAlarm(object: object): () => boolean {
  let finished = false;
  (object as { scheduleAlarm: () => Promise<void> }).scheduleAlarm = async () => {
    await new Promise((r) => setTimeout(r, 50));
    finished = true;
  };
  return () => finished;
}

describe("the outbox alarm is awaited after the commit", () => {
  it("payout commit (quoted → created notifies) returns only after the alarm is set", async () => {
    const orderId = uniqueSub("alarm");
    const quoted = await merchant("/v1/payouts", {
      method: "POST",
      body: JSON.stringify({ orderId, cryptoCurrencyCode: "TRX", address: TRON, amount: "40" }),
    });
    expect(quoted.status).toBe(201);
    // The namespace is typed by the RPC face; the instance inside is the class.
    const stub = payoutStub(env as Env, orderId) as DurableObjectStub<PayoutObject>;
    const finished = await runInDurableObject(stub, async (o: PayoutObject) => {
      const done = slowAlarm(o.host);
      const result = await o.commit();
      expect(result.ok).toBe(true);
      return done();
    });
    expect(finished).toBe(true);
  });

  it("a deposit webhook that notifies returns only after the alarm is set", async () => {
    const sub = uniqueSub("alarm");
    const t = await token({
      sub,
      mode: "deposit",
      customerId: "c1",
      cryptoCurrencyCode: "USDT_TRC20",
    });
    const res = await postJson("/v1/deposits", { token: t }, { "cf-connecting-ip": uniqueIp() });
    expect(res.status).toBe(201);
    const checkoutId = ((await res.json()) as { data: { id: string } }).data.id;
    const simulated = await sandbox(`/sandbox/deposits/cc-${sub}/simulate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ action: "completed", amount: "50" }),
    });
    expect(simulated.status).toBe(200);
    const hook = (await deliveriesFor(`cc-${sub}`)).find(
      (d) => d.event === "deposit.statusChanged",
    );
    const depositId = (JSON.parse(hook!.body) as { data: { id: string } }).data.id;
    const stub = env.DEPOSITS.get(env.DEPOSITS.idFromName(checkoutId));
    const finished = await runInDurableObject(stub, async (o: DepositObject) => {
      const done = slowAlarm(o.host);
      const result = await o.applyDepositWebhook({
        id: depositId,
        key: `test-${sub}`,
        announced: null,
        sentAt: null,
        record: null,
      });
      expect(result).toMatchObject({ ok: true, value: { known: true } });
      return done();
    });
    expect(finished).toBe(true);
  });
});
