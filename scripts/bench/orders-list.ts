/**
 * @module
 * The order list's bench pass: starts `bench/index/` (the real app and account index under
 * `wrangler dev`), seeds 100,000 orders straight into the index, and times
 * `GET /v1/orders?limit=50` end to end over HTTP: pages at random depths through a cursor
 * (the figure), plus the first page and a state-filtered page (printed beside it).
 */
import { encodeCursor } from "../../worker/core/account/page-cursor.ts";
import { DEFAULT_ENDPOINTS, DEMO_MERCHANT_SECRETS, workerDemoVars } from "../dev-vars.ts";
import { startFloor } from "./floor.ts";
import { keep, ms, pct, row, sorted } from "./report.ts";

/** The seeded order `i`'s position (`bench/index/index.ts` seededOrder: one a minute back). */
const position = (i: number) => ({
  createdAt: new Date(Date.UTC(2026, 5, 1) - i * 60_000).toISOString(),
  key: `bench-${String(i).padStart(6, "0")}`,
});

/**
 * Runs the pass; `orders` seeded, `requests` timed per kind.
 *
 * @example
 * await ordersListBench(100_000, 300);
 */
export async function ordersListBench(orders: number, requests: number): Promise<void> {
  const vars = workerDemoVars(DEFAULT_ENDPOINTS);
  const worker = await startFloor({ config: "bench/index/wrangler.toml", readyPath: "/", vars });
  try {
    const t0 = performance.now();
    for (let from = 0; from < orders; from += 10_000) {
      const res = await fetch(`${worker.url}/bench/seed`, {
        method: "POST",
        body: JSON.stringify({ from, count: Math.min(10_000, orders - from) }),
      });
      if (!res.ok) throw new Error(`seed: HTTP ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    }
    row(`orders: ${orders.toLocaleString("en")} seeded into the index`, ms(performance.now() - t0));
    const auth = { authorization: `Bearer ${DEMO_MERCHANT_SECRETS.merchantApiToken}` };
    const time = async (query: string) => {
      const start = performance.now();
      const res = await fetch(`${worker.url}/v1/orders?${query}`, { headers: auth });
      const body = (await res.json()) as { data: unknown[] };
      if (!res.ok || body.data.length !== 50) throw new Error(`list: HTTP ${res.status}`);
      return performance.now() - start;
    };
    for (let i = 0; i < 20; i++) await time("limit=50"); // warm: isolate, object, SQLite pages
    const deep: number[] = [];
    const first: number[] = [];
    const filtered: number[] = [];
    for (let i = 0; i < requests; i++) {
      // Far enough from the end that a state-filtered page is still full (1 in 4 is paid).
      const at = Math.floor(Math.random() * (orders - 1000));
      deep.push(await time(`limit=50&cursor=${encodeCursor(position(at))}`));
      first.push(await time("limit=50"));
      filtered.push(await time(`limit=50&state=paid&cursor=${encodeCursor(position(at))}`));
    }
    const [d, f, s] = [sorted(deep), sorted(first), sorted(filtered)];
    row("orders: a page of 50 of 100,000 at a random depth (cursor), p50", ms(pct(d, 50)));
    row("orders: the same, p99", ms(pct(d, 99)), `${requests} requests, one at a time`);
    row("orders: the first page, p50 / p99", `${ms(pct(f, 50))} / ${ms(pct(f, 99))}`);
    row("orders: state=paid at a random depth, p50 / p99", `${ms(pct(s, 50))} / ${ms(pct(s, 99))}`);
    keep("orders_list_page_p50_ms", pct(d, 50));
    keep("orders_list_page_p99_ms", pct(d, 99));
  } finally {
    await worker.stop();
  }
}
