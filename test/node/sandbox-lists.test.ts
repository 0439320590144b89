/**
 * `GET /deposit/list` and `GET /withdrawal/list` as the service's SDK types them (and
 * `/invoice/list`, which shares their code): `accountId` required, optional `status`, `page`,
 * `limit` (≤ 100); newest first; full records, the same as a single `GET`; `{data, total,
 * page, limit, hasMore}`; bad input 400 and nothing listed.
 */
import { describe, expect, it } from "vitest";
import { useSandbox } from "./sandbox-kit.ts";

const API_KEY = "sk_lists_test";
const ACCOUNT = "22222222-2222-4222-8222-222222222222";
const TRON_TO = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";

const { api } = useSandbox(API_KEY, ACCOUNT);

describe("GET /deposit/list", () => {
  it("pages deposits newest first with full records; filters by status", async () => {
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      const r = await api("POST", "/deposit", {
        accountId: ACCOUNT,
        cryptoCurrencyCode: "USDT_TRC20",
        orderId: `list-dep-${n}`,
      });
      expect(r.status).toBe(201);
      ids.push(r.json.data.id);
    }
    const first = await api("GET", `/deposit/list?accountId=${ACCOUNT}&limit=2&page=1`);
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ total: 3, page: 1, limit: 2, hasMore: true });
    expect(first.json.data.map((d: { id: string }) => d.id)).toEqual([ids[2], ids[1]]);
    const last = await api("GET", `/deposit/list?accountId=${ACCOUNT}&limit=2&page=2`);
    expect(last.json).toMatchObject({ total: 3, page: 2, hasMore: false });
    // The full record: byte for byte what GET /deposit answers.
    const one = await api("GET", `/deposit?accountId=${ACCOUNT}&id=${ids[0]}`);
    expect(JSON.stringify(last.json.data[0])).toBe(JSON.stringify(one.json.data));
    const created = await api("GET", `/deposit/list?accountId=${ACCOUNT}&status=created`);
    expect(created.json.total).toBe(3);
    const none = await api("GET", `/deposit/list?accountId=${ACCOUNT}&status=completed`);
    expect([none.json.total, none.json.data]).toEqual([0, []]);
  });

  it("answers 400 for a missing accountId, an unknown status or a limit over 100", async () => {
    for (const query of [
      "",
      `accountId=${ACCOUNT}&status=weird`,
      `accountId=${ACCOUNT}&limit=101`,
      `accountId=${ACCOUNT}&page=0`,
    ]) {
      const r = await api("GET", `/deposit/list?${query}`);
      expect(r.status, query).toBe(400);
      expect(r.json.code).toBe("exceptions.validation.invalidQuery");
    }
  });
});

describe("GET /withdrawal/list", () => {
  it("lists committed withdrawals with full records; filters by status; 400 on bad input", async () => {
    const q = await api("POST", "/withdrawal/quote", {
      accountId: ACCOUNT,
      cryptoCurrencyCode: "TRX",
      address: TRON_TO,
      amount: 20,
      orderId: "list-wd-1",
    });
    expect(q.status).toBe(201);
    const committed = await api("POST", "/withdrawal/commit", { quoteId: q.json.data.quoteId });
    expect(committed.status).toBe(201);
    const list = await api("GET", `/withdrawal/list?accountId=${ACCOUNT}&limit=100`);
    expect(list.status).toBe(200);
    expect(list.json).toMatchObject({ total: 1, page: 1, limit: 100, hasMore: false });
    const one = await api("GET", `/withdrawal?accountId=${ACCOUNT}&id=${committed.json.data.id}`);
    expect(JSON.stringify(list.json.data[0])).toBe(JSON.stringify(one.json.data));
    const status = one.json.data.status as string;
    const same = await api("GET", `/withdrawal/list?accountId=${ACCOUNT}&status=${status}`);
    expect(same.json.total).toBe(1);
    const bad = await api("GET", `/withdrawal/list?accountId=${ACCOUNT}&status=paid`);
    expect(bad.status).toBe(400);
    const other = await api(
      "GET",
      "/withdrawal/list?accountId=00000000-0000-4000-8000-00000000ffff",
    );
    expect(other.status).toBeGreaterThanOrEqual(400);
  });
});
