/**
 * @module
 * The runtime's floor under `cpu_ms_per_webhook`: `count` floor objects, each watched by one SSE
 * stream, receive `rate` signed webhooks a second for `seconds`, each the least a webhook can
 * cost (`bench/floor/` `POST /webhook/:name`: the signature checked, the body parsed, one object
 * call that stores the record, writes one frame to its stream and POSTs one notification).
 * Measured as the load stage measures ours: the runtime's CPU over the pass less the same span
 * of its quiet baseline, per webhook (`floor_cpu_ms_per_webhook`).
 *
 * A second pass sends the same webhooks to `POST /webhook-hops/:name`: the hops ours makes (the
 * object also calls an index object and a hub object, each storing one row, before the POST),
 * so the runtime's cost of the webhook's shape sits beside ours
 * (`floor_cpu_ms_per_webhook_same_hops`).
 *
 * Bounded: `count` objects and streams, `rate × seconds` webhooks, every wait has a deadline,
 * loopback only.
 */
import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { cpuMs } from "./cpu.ts";
import { floorRuntimeUrl } from "./floor-watchers.ts";
import { keep, ms, row, sleep } from "./report.ts";
import { runtimePids } from "./runtime.ts";
import { openWatchers } from "./watchers.ts";

/** The floor's webhook key (`bench/floor/index.ts`; bench only). */
const FLOOR_WEBHOOK_KEY = "floor-webhook-key";

/** A signed delivery of about the size of the sandbox's `invoice.statusChanged`. */
function delivery(name: string, status: string, n: number): { body: string; signature: string } {
  const body = JSON.stringify({
    event: "invoice.statusChanged",
    timestamp: new Date().toISOString(),
    data: {
      id: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
      orderId: name,
      accountId: "00000000-0000-4000-8000-000000000001",
      status,
      previousStatus: status === "processing" ? "suspended" : "processing",
      fiatCurrencyCode: "USD",
      amount: 25,
      cryptoCurrencyCode: "USDT_TRC20",
      cryptoAmount: 25.000001,
      paidAmount: 0,
      address: "TXYZabcdefghijkmnopqrstuvwxyz12345",
      paymentUrl: `https://pay.example/invoice/${name}`,
      description: "bench",
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
      transactions: [],
    },
  });
  const signature = createHmac("sha256", FLOOR_WEBHOOK_KEY).update(body).digest("hex");
  return { body, signature };
}

/** CPU ms per second of `pids` over `span` ms. */
async function cpuRate(pids: string[], span: number): Promise<number> {
  const before = cpuMs(pids);
  await sleep(span);
  return ((cpuMs(pids) - before) * 1000) / span;
}

/** One pass's outcome: webhooks sent and answered 200, the first failure, CPU figures. */
interface PassResult {
  total: number;
  answered: number;
  failure: string | undefined;
  quiet: number;
  perWebhook: number;
}

/**
 * Sends `rate × seconds` signed webhooks to `route` over `names`, after a 10 s quiet baseline;
 * answers the runtime's CPU per webhook over that baseline.
 */
async function webhookPass(o: {
  direct: string;
  route: "webhook" | "webhook-hops";
  names: string[];
  notifyUrl: string;
  pids: string[];
  rate: number;
  seconds: number;
}): Promise<PassResult> {
  const quiet = await cpuRate(o.pids, 10_000);
  const total = o.rate * o.seconds;
  const failures: string[] = [];
  const cpu0 = cpuMs(o.pids);
  const t0 = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let n = 0; n < total; n++) {
    const due = t0 + (n * 1000) / o.rate;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const name = o.names[n % o.names.length]!;
    const { body, signature } = delivery(name, n % 2 ? "suspended" : "processing", n);
    inFlight.push(
      fetch(`${o.direct}/${o.route}/${name}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-webhook-signature": signature,
          "x-notify-url": o.notifyUrl,
        },
        body,
        signal: AbortSignal.timeout(30_000),
      })
        .then(async (res) => {
          await res.arrayBuffer();
          if (res.status !== 200) failures.push(`HTTP ${res.status}`);
        })
        .catch((error: Error) => void failures.push(error.message)),
    );
  }
  await Promise.all(inFlight);
  const span = performance.now() - t0;
  const spent = cpuMs(o.pids) - cpu0;
  const perWebhook = (spent - (quiet * span) / 1000) / total;
  return { total, answered: total - failures.length, failure: failures[0], quiet, perWebhook };
}

/**
 * Runs the floor's webhook passes; prints their rows and keeps `floor_cpu_ms_per_webhook` and
 * `floor_cpu_ms_per_webhook_same_hops`.
 *
 * @example
 * await floorWebhooks({ port: floor.port, count: 1000, rate: 100, seconds: 30, run: "x1" });
 */
export async function floorWebhooks(o: {
  port: number;
  count: number;
  rate: number;
  seconds: number;
  run: string;
}): Promise<void> {
  const direct = await floorRuntimeUrl(o.port);
  const sink = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.end("{}"));
  });
  await new Promise<void>((r) => sink.listen(0, "127.0.0.1", r));
  const notifyUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}/inbox`;
  const names = Array.from({ length: o.count }, (_, i) => `hooked-${o.run}-${i}`);
  const watchers = await openWatchers(names.map((name) => `${direct}/sse/${name}`));
  try {
    await sleep(5_000);
    const pids = runtimePids(o.port);
    const pass = { direct, names, notifyUrl, pids, rate: o.rate, seconds: o.seconds };
    const passes = [
      {
        route: "webhook",
        key: "floor_cpu_ms_per_webhook",
        label: `floor: ${o.rate}/s × ${o.seconds} s signed webhooks over ${watchers.opened} watched objects`,
        note: "the least a verified, stored, relayed and notified webhook costs this runtime",
      },
      {
        route: "webhook-hops",
        key: "floor_cpu_ms_per_webhook_same_hops",
        label: "floor, same hops as ours (+ index and hub object calls, one row each)",
        note: "inbound request, 3 object calls, 3 writes, 1 POST: the shape of our webhook, nothing else",
      },
    ] as const;
    for (const { route, key, label, note } of passes) {
      const done = await webhookPass({ ...pass, route });
      const failed = done.failure ? ` (${done.failure})` : "";
      row(`${label}: answered 200`, `${done.answered} / ${done.total}${failed}`);
      row(
        `${label}: runtime CPU, quiet (ms per s) / per webhook over the quiet baseline`,
        `${done.quiet.toFixed(0)} / ${ms(done.perWebhook)}`,
        note,
      );
      if (!done.failure) keep(key, done.perWebhook);
    }
  } finally {
    await watchers.close();
    await new Promise((r) => sink.close(r));
  }
}
