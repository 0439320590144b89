/**
 * Refund and payout addresses through the real worker (sandbox mode, test networks) and the
 * real sandbox: the worker checks them with the widget's own rules (checksums, test network vs
 * mainnet), freezes a refund address once a refund is in flight, keeps where each refund went,
 * and throttles address changes per checkout. Every refusal changes nothing.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { CheckoutSnapshot } from "../../packages/contract/src/http-api.ts";
import { throttleKey } from "../../worker/core/events/throttle.ts";
import { migrate } from "../../worker/core/storage/migrations.ts";
import type { OrderObject } from "../../worker/order/order-object.ts";
import { REFUND_ADDRESS_WRITES } from "../../worker/order/refunds/address.ts";
import {
  REFUNDS_MIGRATIONS,
  readRefunds,
  writeRefund,
} from "../../worker/order/refunds/records.ts";
import {
  ledgerOf,
  merchant,
  openCheckout,
  postJson,
  refundOrder,
  sandbox,
  uniqueSub,
  upstreamRequests,
  worker,
} from "./helpers.ts";
import { failedRefund, paidOrder, SHOPPER_TRON } from "./orders.ts";

type Body = { data: CheckoutSnapshot; error?: { code: string; message: string } };

const TRON_A = SHOPPER_TRON;
const TRON_B = "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf";
/** TRON_A with its last character changed: the base58check checksum no longer matches. */
const TRON_TYPO = "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU8";
/** BIP-173's P2WPKH example on mainnet and on testnet (the same key). */
const BTC_MAIN = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
const BTC_TEST = "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx";

const setAddress = async (id: string, cryptoCurrencyCode: string, address: string) => {
  const res = await postJson(`/v1/checkouts/${id}/refund-address`, { cryptoCurrencyCode, address });
  return {
    status: res.status,
    retryAfter: res.headers.get("retry-after"),
    body: (await res.json()) as Body,
  };
};

const view = async (id: string) =>
  ((await (await worker(`/v1/checkouts/${id}`)).json()) as Body).data;

describe("the worker checks refund addresses with the widget's rules", () => {
  it("refuses broken checksums and mainnet addresses in sandbox mode (400 invalid_address), storing nothing", async () => {
    const { body } = await openCheckout({ sub: uniqueSub("ra-bad") });
    const id = body.data.id;
    const before = await view(id);
    const cases: [string, string, RegExp][] = [
      ["USDT_TRC20", TRON_TYPO, /checksum/],
      ["TRX", TRON_TYPO, /checksum/],
      ["BTC", `${BTC_TEST.slice(0, -1)}y`, /checksum/], // one bech32 character changed
      ["BTC", BTC_MAIN, /mainnet .*sandbox mode/],
      ["BTC", "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", /mainnet .*sandbox mode/],
      ["BTC", "mzK2FFDEhxqHcmrJw1ysqFkVyhUULo45hZ".replace("Z", "Y"), /checksum/],
      ["USDT_TRC20", "0x52908400098527886E0F7030069857D2E4169EE7", /not a valid/],
    ];
    for (const [code, address, message] of cases) {
      const res = await setAddress(id, code, address);
      expect([code, address, res.status, res.body.error?.code]).toEqual([
        code,
        address,
        400,
        "invalid_address",
      ]);
      expect(res.body.error?.message).toMatch(message);
    }
    const after = await view(id);
    expect([after.refundAddress, after.seq]).toEqual([null, before.seq]);
  });

  it("accepts test-network addresses (bech32, base58 P2PKH/P2SH) and Tron; the stored address is trimmed", async () => {
    const { body } = await openCheckout({ sub: uniqueSub("ra-ok") });
    const id = body.data.id;
    for (const [code, address] of [
      ["BTC", BTC_TEST],
      ["BTC", "mzK2FFDEhxqHcmrJw1ysqFkVyhUULo45hZ"],
      ["BTC", "2NC2hEhe28ULKAJkW5MjZ3jtTMJdvXmByvK"],
      ["USDT_TRC20", ` ${TRON_A} `],
    ] as const) {
      const res = await setAddress(id, code, address);
      expect([address, res.status]).toEqual([address, 200]);
      expect(res.body.data.refundAddress).toEqual({
        cryptoCurrencyCode: code,
        address: address.trim(),
      });
    }
  });

  it("answers every other bad input with its status and code", async () => {
    const { body } = await openCheckout({ sub: uniqueSub("ra-input") });
    const id = body.data.id;
    const url = `/v1/checkouts/${id}/refund-address`;
    const cases: [string, unknown, number, string][] = [
      [url, { cryptoCurrencyCode: "USDT_TRC20" }, 400, "validation_failed"],
      [url, { cryptoCurrencyCode: "USDT_TRC20", address: "" }, 400, "validation_failed"],
      [url, { cryptoCurrencyCode: "DOGE", address: TRON_A }, 400, "currency_unavailable"],
      [url, { cryptoCurrencyCode: "usdt", address: TRON_A }, 400, "validation_failed"],
      [
        "/v1/checkouts/AAAAAAAAAAAAAAAAAAAAAA/refund-address",
        { cryptoCurrencyCode: "USDT_TRC20", address: TRON_A },
        404,
        "not_found",
      ],
    ];
    for (const [path, payload, status, code] of cases) {
      const res = await postJson(path, payload);
      const error = ((await res.json()) as Body).error;
      expect([JSON.stringify(payload), res.status, error?.code]).toEqual([
        JSON.stringify(payload),
        status,
        code,
      ]);
    }
    expect((await view(id)).refundAddress).toBeNull();
  });

  it("merchant payouts: a mainnet or mistyped address is 400 invalid_address and nothing is quoted", async () => {
    const before = (await upstreamRequests("/withdrawal/quote", "POST")).length;
    for (const [cryptoCurrencyCode, address] of [
      ["BTC", BTC_MAIN],
      ["TRX", TRON_TYPO],
      ["USDT_TRC20", TRON_TYPO],
    ] as const) {
      const res = await merchant("/v1/payouts", {
        method: "POST",
        body: JSON.stringify({
          orderId: uniqueSub("po"),
          cryptoCurrencyCode,
          address,
          amount: "25",
        }),
      });
      const error = ((await res.json()) as Body).error;
      expect([address, res.status, error?.code]).toEqual([address, 400, "invalid_address"]);
      // A payout is no checkout: the words speak of sandbox mode, not of "this checkout".
      if (address === BTC_MAIN) {
        expect(error?.message).toBe(
          "This is a mainnet BTC address, but sandbox mode takes test-network addresses only.",
        );
      }
    }
    expect((await upstreamRequests("/withdrawal/quote", "POST")).length).toBe(before);
  });

  it("a bad address stored before these checks is never paid: the refund is 400 and its hold released", async () => {
    const { sub, id } = await paidOrder("over", "15", { refundAddress: TRON_A });
    const stub = env.ORDERS.get(env.ORDERS.idFromName(id));
    await runInDurableObject(stub, async (o: OrderObject) => {
      o.store.setRefundAddress("USDT_TRC20", TRON_TYPO);
    });
    const quotes = (await upstreamRequests("/withdrawal/quote", "POST")).length;
    const refused = await refundOrder(sub);
    expect([refused.status, refused.body.error?.code]).toEqual([400, "invalid_address"]);
    expect((await upstreamRequests("/withdrawal/quote", "POST")).length).toBe(quotes);
    // Nothing was sent, so nothing is frozen: the shopper can correct it and be refunded.
    expect((await setAddress(id, "USDT_TRC20", TRON_B)).status).toBe(200);
    const paid = await refundOrder(sub);
    expect([paid.status, paid.body.data.address]).toEqual([201, TRON_B]);
  });
});

describe("a refund in flight freezes the address; each refund keeps where it went", () => {
  it("409 refund_address_frozen for another address once refunded (the same one is 200); the ledger shows address, currency, amount and withdrawal id", async () => {
    const { sub, id } = await paidOrder("over", "15", { refundAddress: TRON_A });
    const refund = await refundOrder(sub);
    expect(refund.status).toBe(201);
    const withdrawalId = refund.body.data.withdrawal!.id;

    const before = await view(id);
    for (const [code, address] of [
      ["USDT_TRC20", TRON_B],
      ["TRX", TRON_A],
    ] as const) {
      const res = await setAddress(id, code, address);
      expect([address, res.status, res.body.error?.code]).toEqual([
        address,
        409,
        "refund_address_frozen",
      ]);
    }
    const same = await setAddress(id, "USDT_TRC20", TRON_A);
    expect(same.status).toBe(200);
    const after = await view(id);
    expect([after.refundAddress?.address, after.seq]).toEqual([TRON_A, before.seq]);
    expect(after.refunds?.[0]).toMatchObject({ address: TRON_A, cryptoCurrencyCode: "USDT_TRC20" });

    const ledger = await ledgerOf(sub);
    expect(ledger.refunds).toEqual([
      {
        orderId: `cc-${sub}-refund`,
        cryptoCurrencyCode: "USDT_TRC20",
        amount: "15",
        address: TRON_A,
        status: "created",
        withdrawalId,
      },
    ]);
    // The withdrawal the service made went to that address.
    const upstream = await sandbox<{ data: { id: string; address: string } }>(
      `/withdrawal?accountId=${env.ACCOUNT_ID}&orderId=cc-${sub}-refund`,
      { headers: { "x-tenant-api-key": env.API_KEY as string } },
    );
    expect([upstream.body.data.id, upstream.body.data.address]).toEqual([withdrawalId, TRON_A]);
  });

  it("after the refund's withdrawal failed the address may change, and the next refund pays the new one; the failed record keeps the old", async () => {
    const { sub, id } = await paidOrder("over", "15", { refundAddress: TRON_A });
    const first = await failedRefund(sub);
    expect((await setAddress(id, "USDT_TRC20", TRON_B)).status).toBe(200);
    const second = await refundOrder(sub);
    expect([second.status, second.body.data.address]).toEqual([201, TRON_B]);
    const ledger = await ledgerOf(sub);
    expect(ledger.refunds.map((r) => [r.orderId, r.status, r.address, r.withdrawalId])).toEqual([
      [`cc-${sub}-refund`, "failed", TRON_A, first.body.data.withdrawal!.id],
      [`cc-${sub}-refund-2`, "created", TRON_B, second.body.data.withdrawal!.id],
    ]);
    // Frozen again under the live second refund.
    expect((await setAddress(id, "USDT_TRC20", TRON_A)).body.error?.code).toBe(
      "refund_address_frozen",
    );
  });

  it("frozen while a refund holds the order, before its withdrawal exists", async () => {
    const { sub, id } = await paidOrder("over", "15", { refundAddress: TRON_A });
    const stub = env.ORDERS.get(env.ORDERS.idFromName(id));
    // The merchant's refund took its hold and is still quoting.
    const begun = await runInDurableObject(stub, (o: OrderObject) => o.beginRefund());
    expect(begun.ok).toBe(true);
    const res = await setAddress(id, "USDT_TRC20", TRON_B);
    expect([res.status, res.body.error?.code]).toEqual([409, "refund_address_frozen"]);
    expect(res.body.error?.message).toContain(`cc-${sub}-refund`);
    expect((await view(id)).refundAddress?.address).toBe(TRON_A);
  });
});

describe("objects made before refunds kept their address", () => {
  it("get the column added, keep their rows, and record addresses from then on", async () => {
    const { body } = await openCheckout({ sub: uniqueSub("ra-old") });
    const stub = env.ORDERS.get(env.ORDERS.idFromName(body.data.id));
    const rows = await runInDurableObject(stub, async (_o: OrderObject, state) => {
      const sql = state.storage.sql;
      sql.exec("ALTER TABLE refunds DROP COLUMN address"); // the table as it was made before
      sql.exec(
        `INSERT INTO refunds (order_id, number, crypto_code, amount, status, withdrawal_id, updated_at)
         VALUES ('cc-old-refund', 1, 'TRX', '5', 'failed', 'wd_old', 'then')`,
      );
      sql.exec("DELETE FROM schema_migrations"); // made before migrations were numbered
      migrate(sql, [REFUNDS_MIGRATIONS]);
      migrate(sql, [REFUNDS_MIGRATIONS]); // idempotent
      const record = { number: 2, cryptoCurrencyCode: "TRX", amount: "6", withdrawalId: "wd_new" };
      writeRefund(
        sql,
        { ...record, orderId: "cc-old-refund-2", status: "created", address: TRON_A },
        "now",
      );
      // A later report never replaces where the money went.
      writeRefund(
        sql,
        { ...record, orderId: "cc-old-refund-2", status: "completed", address: TRON_B },
        "now",
      );
      return readRefunds(sql).map((r) => [r.orderId, r.status, r.address, r.withdrawalId]);
    });
    expect(rows).toEqual([
      ["cc-old-refund", "failed", null, "wd_old"],
      ["cc-old-refund-2", "completed", TRON_A, "wd_new"],
    ]);
  });
});

describe("refund-address writes are throttled per checkout", () => {
  it(`${REFUND_ADDRESS_WRITES.limit} changes a minute, then 429 rate_limited with Retry-After; nothing changes; another checkout is unaffected; the window frees up`, async () => {
    const { body } = await openCheckout({ sub: uniqueSub("ra-rate") });
    const id = body.data.id;
    const addresses = [TRON_A, TRON_B];
    for (let i = 0; i < REFUND_ADDRESS_WRITES.limit; i++) {
      const res = await setAddress(id, "USDT_TRC20", addresses[i % 2]!);
      expect([i, res.status]).toEqual([i, 200]);
    }
    const saved = await view(id);
    expect(saved.refundAddress?.address).toBe(TRON_B);
    // Repeating the saved address is not a change: answered, not counted.
    expect((await setAddress(id, "USDT_TRC20", TRON_B)).status).toBe(200);
    const limited = await setAddress(id, "USDT_TRC20", TRON_A);
    expect([limited.status, limited.body.error?.code]).toEqual([429, "rate_limited"]);
    const wait = Number(limited.retryAfter);
    expect(Number.isInteger(wait) && wait >= 1 && wait <= 60).toBe(true);
    const after = await view(id);
    expect([after.refundAddress?.address, after.seq]).toEqual([TRON_B, saved.seq]);

    const other = await openCheckout({ sub: uniqueSub("ra-rate2") });
    expect((await setAddress(other.body.data.id, "USDT_TRC20", TRON_A)).status).toBe(200);

    // A minute later (the stored log aged instead of waiting) a change is accepted again.
    const stub = env.ORDERS.get(env.ORDERS.idFromName(id));
    await runInDurableObject(stub, async (_o: OrderObject, state) => {
      const key = throttleKey(REFUND_ADDRESS_WRITES);
      const log = state.storage.kv.get<number[]>(key) ?? [];
      expect(log).toHaveLength(REFUND_ADDRESS_WRITES.limit);
      state.storage.kv.put(
        key,
        log.map((t) => t - REFUND_ADDRESS_WRITES.windowMs),
      );
    });
    const again = await setAddress(id, "USDT_TRC20", TRON_A);
    expect([again.status, again.body.data.refundAddress?.address]).toEqual([200, TRON_A]);
  });
});
