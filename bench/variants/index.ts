/**
 * @module
 * The bench's stream variants (`scripts/bench/variants-run.ts`; README "What a held stream
 * costs"): ways to hold one SSE stream open, to measure what the runtime keeps per held stream.
 *
 * - `GET /s/<kind>/<n>`: a stream of kind `kind` made in the stateless worker (a 15 s interval
 *   keeps the request alive: with nothing pending, workerd cancels it as hung);
 * - `GET /d/<kind>/<name>`: the same made in Durable Object `<name>` (one per stream, or a few
 *   names for many streams: the hubs' shape), passed through as the floor and our route do
 *   (`/dr/…`: the object's response returned as is);
 * - `POST /w/<name>`: one SQLite row in object `<name>` (makes it exist before its stream).
 *
 * Kinds: `its` native `IdentityTransformStream` (+ `ce`: `content-encoding: identity`,
 * `manual`: `encodeBody: "manual"`, `h1`: one header), `ts` / `ts0` `TransformStream` (default
 * / zero high-water marks), `rs` / `rs0` `ReadableStream` with a `start` source (default / zero
 * high-water mark), `pull` a pull source, `bytes` a byte stream. Each sends one snapshot frame.
 */
import { DurableObject } from "cloudflare:workers";

interface Env {
  V: DurableObjectNamespace<VObject>;
}
const encoder = new TextEncoder();
const FIRST = encoder.encode(
  'retry: 2000\n\nid: 0\nevent: snapshot\ndata: {"orderId":"floor","status":"open"}\n\n',
);
const HEADERS = { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" };
const held: unknown[] = [];

function make(kind: string): Response {
  let body: ReadableStream;
  let init: ResponseInit & { encodeBody?: string } = { headers: HEADERS };
  if (kind.startsWith("its") || kind === "ce" || kind === "manual" || kind === "h1") {
    const { readable, writable } = new IdentityTransformStream();
    const w = writable.getWriter();
    w.write(FIRST).catch(() => {});
    held.push(w);
    body = readable;
  } else if (kind === "ts" || kind === "ts0") {
    const ts =
      kind === "ts0"
        ? new TransformStream(undefined, { highWaterMark: 0 }, { highWaterMark: 0 })
        : new TransformStream();
    const w = ts.writable.getWriter();
    w.write(FIRST).catch(() => {});
    held.push(w);
    body = ts.readable;
  } else if (kind === "rs" || kind === "rs0") {
    body = new ReadableStream(
      {
        start(c) {
          c.enqueue(FIRST);
          held.push(c);
        },
      },
      kind === "rs0" ? { highWaterMark: 0 } : undefined,
    );
  } else if (kind === "pull") {
    let sent = false;
    body = new ReadableStream(
      {
        pull(c) {
          if (!sent) {
            sent = true;
            c.enqueue(FIRST);
            held.push(c);
            return;
          }
          return new Promise(() => {});
        },
      },
      { highWaterMark: 0 },
    );
  } else if (kind === "bytes") {
    body = new ReadableStream({
      type: "bytes",
      start(c) {
        c.enqueue(FIRST.slice());
        held.push(c);
      },
    });
  } else throw new Error(`unknown kind ${kind}`);
  if (kind === "ce") init = { headers: { ...HEADERS, "content-encoding": "identity" } };
  if (kind === "manual") init = { headers: HEADERS, encodeBody: "manual" };
  if (kind === "h1") init = { headers: { "content-type": "text/event-stream" } };
  return new Response(body, init);
}

export class VObject extends DurableObject<Env> {
  write(): number {
    this.ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS r (id INTEGER PRIMARY KEY, at TEXT)");
    this.ctx.storage.sql.exec("INSERT INTO r (at) VALUES (?)", new Date().toISOString());
    return 1;
  }
  override async fetch(request: Request): Promise<Response> {
    return make(new URL(request.url).pathname.split("/")[2] ?? "its");
  }
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const [, route, kind = "its", name = "x"] = url.pathname.split("/");
    if (route === "json") return Response.json({ data: [] });
    if (route === "w") return Response.json({ n: await env.V.get(env.V.idFromName(kind)).write() });
    if (route === "s") {
      // A stateless request with nothing pending is cancelled as hung: a heartbeat keeps it.
      const res = make(kind);
      setInterval(() => {}, 15_000);
      return res;
    }
    if (route === "d" || route === "dr") {
      const res = await env.V.get(env.V.idFromName(name)).fetch(request);
      return route === "dr" ? res : new Response(res.body, res);
    }
    return new Response("no", { status: 404 });
  },
} satisfies ExportedHandler<Env>;
