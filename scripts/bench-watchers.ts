/**
 * @module
 * A worker thread of `npm run bench`: opens `count` SSE streams to one checkout with node:http
 * and reports when each snapshot status arrived. Several threads share the watchers so that
 * the figure measures the worker, not one client event loop parsing a thousand sockets.
 *
 * Messages to the parent: `{ opened: n }` once all streams got their first snapshot, then
 * `{ status, times }` batches of arrival times (ms since epoch) per snapshot status.
 */
import http from "node:http";
import { parentPort, workerData } from "node:worker_threads";

const { url, count } = workerData as { url: string; count: number };
const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
const arrivals = new Map<string, number[]>();
let opened = 0;

for (let i = 0; i < count; i++) {
  let buffer = "";
  let first = true;
  const req = http.get(url, { agent, headers: { accept: "text/event-stream" } }, (res) => {
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => {
      const at = Date.now();
      buffer += chunk;
      let cut = buffer.indexOf("\n\n");
      while (cut >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const status = /"orderId":"[^"]*","status":"([a-z_]+)"/.exec(block)?.[1];
        if (status && first) {
          first = false;
          opened += 1;
          if (opened === count) parentPort?.postMessage({ opened });
        } else if (status) {
          const list = arrivals.get(status) ?? [];
          list.push(at);
          arrivals.set(status, list);
        }
        cut = buffer.indexOf("\n\n");
      }
    });
  });
  req.on("error", () => {});
}

parentPort?.on("message", (m: { report: string }) => {
  parentPort?.postMessage({ status: m.report, times: arrivals.get(m.report) ?? [] });
});
