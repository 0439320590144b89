/**
 * @module
 * A worker thread of `npm run bench`: opens one SSE stream per URL in `urls` with node:http
 * (the same URL many times for a fan-out, or one URL per checkout under load), with `headers`
 * added to each request when given, and records when each event arrived. Several threads
 * share the watchers so that the figure measures the worker, not one client event loop
 * parsing a thousand sockets.
 *
 * Messages to the parent:
 * - `{ opened }` once every stream got its first event (the snapshot on connecting);
 * - on `{ report: status }`: `{ times }`, arrival times (ms since epoch) of `status` events;
 * - on `{ dump: true }`: `{ events }`, per stream the `[status, at]` of every later event;
 * - on `{ close: true }`: closes every stream, then `{ closed }`.
 */
import http from "node:http";
import { parentPort, workerData } from "node:worker_threads";

const { urls, headers = {} } = workerData as { urls: string[]; headers?: Record<string, string> };
const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
/** Per stream, the events after the first: [status, arrival ms]. */
const events: [string, number][][] = urls.map(() => []);
const requests: http.ClientRequest[] = [];
let opened = 0;

urls.forEach((url, index) => {
  let buffer = "";
  let first = true;
  const req = http.get(
    url,
    { agent, headers: { accept: "text/event-stream", ...headers } },
    (res) => {
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
            if (opened === urls.length) parentPort?.postMessage({ opened });
          } else if (status) events[index]!.push([status, at]);
          cut = buffer.indexOf("\n\n");
        }
      });
    },
  );
  req.on("error", () => {});
  requests.push(req);
});

parentPort?.on("message", (m: { report?: string; dump?: boolean; close?: boolean }) => {
  if (m.report !== undefined) {
    const times = events.flatMap((list) => list.filter(([s]) => s === m.report).map(([, t]) => t));
    parentPort?.postMessage({ times });
  } else if (m.dump) parentPort?.postMessage({ events });
  else if (m.close) {
    for (const req of requests) req.destroy();
    parentPort?.postMessage({ closed: requests.length });
  }
});
