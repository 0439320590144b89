/**
 * @module delivery-sender
 * The sandbox's webhook connections: POSTs over a bounded pool of keep-alive sockets per
 * destination (node:http / node:https agents), instead of `fetch`'s pool, which opens a new
 * socket whenever every open one is busy and closes idle ones after 4 s.
 *
 * Why: every socket the sender opens and later closes is one inbound connection the receiver
 * must close too, and workerd (under `wrangler dev`, proxy and runtime alike) leaves closed
 * inbound connections half-open (CLOSE-WAIT) until its file descriptors run out. A bounded
 * pool of sockets that stay open turns 100 webhooks a second into at most `MAX_SOCKETS`
 * connections instead of thousands; beyond that many in flight, deliveries queue here, as a
 * real sender's do (the per-attempt timeout counts the wait).
 */
import http from "node:http";
import https from "node:https";

/** Concurrent connections per destination (host:port); more deliveries in flight wait. */
export const MAX_SOCKETS = 32;
/** An idle pooled socket is closed after this long (ms). */
const IDLE_MS = 60_000;

/** Sends webhook POSTs over bounded keep-alive pools. */
export interface DeliverySender {
  /** POSTs `body`; answers the HTTP status once the response body was read. */
  post(
    url: string,
    headers: Record<string, string>,
    body: string,
    signal: AbortSignal,
  ): Promise<number>;
  /** Closes every pooled socket (idle or busy). */
  destroy(): void;
}

/**
 * Creates a sender with its own pools (one per sandbox, closed with it).
 * @example
 * const sender = createDeliverySender();
 * const status = await sender.post("http://127.0.0.1:8787/webhooks/payment",
 *   { "content-type": "application/json" }, "{}", AbortSignal.timeout(10_000));
 * sender.destroy();
 */
export function createDeliverySender(): DeliverySender {
  const options = { keepAlive: true, maxSockets: MAX_SOCKETS, timeout: IDLE_MS };
  const agents = { http: new http.Agent(options), https: new https.Agent(options) };
  return {
    post(url, headers, body, signal) {
      const target = new URL(url);
      const secure = target.protocol === "https:";
      if (!secure && target.protocol !== "http:") {
        return Promise.reject(new Error(`unsupported webhook URL scheme ${target.protocol}`));
      }
      const request = secure ? https.request : http.request;
      const bytes = Buffer.from(body, "utf8");
      return new Promise<number>((resolve, reject) => {
        const req = request(
          target,
          {
            method: "POST",
            agent: secure ? agents.https : agents.http,
            headers: { ...headers, "content-length": String(bytes.length) },
            signal,
          },
          (res) => {
            // The status line arrived: a body cut short later does not undo the answer.
            res.on("error", () => resolve(res.statusCode ?? 0));
            // Read to the end: only a fully read response gives its socket back to the pool.
            res.on("data", () => {});
            res.on("end", () => resolve(res.statusCode ?? 0));
          },
        );
        req.on("error", reject);
        // A pooled socket idle for IDLE_MS fires `timeout`; a busy one is ended by `signal`.
        req.on("timeout", () => req.destroy(new Error("webhook socket timed out")));
        req.end(bytes);
      });
    },
    destroy() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
