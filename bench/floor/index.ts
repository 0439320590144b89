/**
 * @module
 * The bench's floor worker (see `wrangler.toml` beside it): what the runtime itself costs for
 * the three things crypto-checkout's budgets measure, with nothing of ours in between.
 *
 * - `GET /json`: a JSON answer the size of a currency list, from memory;
 * - `POST /write/:name`: one Durable Object call that inserts one SQLite row;
 * - `POST /write-fetch-write/:name?url=…`: the least a checkout create can be: one Durable
 *   Object call that inserts a row (committed before anything leaves: the output gate), makes
 *   one `GET` to `url` (the bench passes the sandbox's cheapest route), reads its body and
 *   inserts a second row;
 * - `GET /sse/:name` + `POST /fanout/:name`: SSE streams held by one Durable Object, and one
 *   frame written to all of them (encoded once, as `worker/core/events/sse.ts` does);
 * - `POST /webhook/:name`: the least a signed webhook can cost: the body's HMAC-SHA256 checked
 *   (`x-webhook-signature`, hex, key `FLOOR_WEBHOOK_KEY`), the JSON parsed, one Durable Object
 *   call that stores the record in one row, writes one frame to the object's streams and POSTs
 *   one notification to `x-notify-url` (the merchant's backend), then 200;
 * - `POST /webhook-hops/:name`: the same, with the hops crypto-checkout's webhook makes: the
 *   object also calls two other objects (an account-wide `index` and one of 16 `hub-N`), each
 *   storing one row, before its notification: one inbound request, three object calls, three
 *   writes and one POST.
 *
 * Frames carry `"orderId":…,"status":…` like a checkout snapshot, so the bench's watcher
 * threads read both the same way.
 */
import { DurableObject } from "cloudflare:workers";

interface FloorEnv {
  FLOOR: DurableObjectNamespace<FloorObject>;
}

/** The floor's webhook key (bench only: the floor is never deployed). */
const FLOOR_WEBHOOK_KEY = "floor-webhook-key";
let webhookKey: Promise<CryptoKey> | null = null;

/** True when `signature` is the hex HMAC-SHA256 of `body` under the floor's key. */
async function signed(body: string, signature: string | null): Promise<boolean> {
  if (!signature || !/^[0-9a-f]{64}$/.test(signature)) return false;
  webhookKey ??= crypto.subtle.importKey(
    "raw",
    encoder.encode(FLOOR_WEBHOOK_KEY),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["verify"],
  );
  const bytes = new Uint8Array(32);
  for (let i = 0; i < 32; i++) bytes[i] = Number.parseInt(signature.slice(i * 2, i * 2 + 2), 16);
  return crypto.subtle.verify("HMAC", await webhookKey, bytes, encoder.encode(body));
}

const encoder = new TextEncoder();

/** One of 16 hubs for `name` (as `STREAM_HUB_COUNT` spreads checkouts; any stable spread will do). */
function hubOf(name: string): number {
  let h = 0;
  for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
  return h % 16;
}
/** About the size of the sandbox's crypto list as the worker serves it. */
const LIST = JSON.stringify({
  data: Array.from({ length: 12 }, (_, i) => ({
    code: `COIN_${i}`,
    name: `Coin ${i}`,
    network: `Network ${i % 4}`,
    decimalPlaces: 6,
    minAmount: "1.000000",
    maxAmount: "100000.000000",
  })),
});

/** The floor's Durable Object: one table, and the streams of its watchers. */
export class FloorObject extends DurableObject<FloorEnv> {
  readonly #streams = new Set<ReadableStreamDefaultController<Uint8Array>>();
  #seq = 0;

  constructor(ctx: DurableObjectState, env: FloorEnv) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS rows (id INTEGER PRIMARY KEY, at TEXT)");
  }

  /** Inserts one row (`record`, else the time) and answers its id. */
  write(record?: string): number {
    this.ctx.storage.sql.exec(
      "INSERT INTO rows (at) VALUES (?)",
      record ?? new Date().toISOString(),
    );
    return Number(this.ctx.storage.sql.exec("SELECT last_insert_rowid() AS id").one().id);
  }

  /** Writes one frame to every open stream; answers how many. */
  fanout(status: string): number {
    this.#seq += 1;
    const frame = `id: ${this.#seq}\nevent: snapshot\ndata: {"orderId":"floor","status":"${status}"}\n\n`;
    const bytes = encoder.encode(frame);
    for (const stream of this.#streams) {
      try {
        stream.enqueue(bytes);
      } catch {
        this.#streams.delete(stream);
      }
    }
    return this.#streams.size;
  }

  /** The create's shape: a row, one call out (after the row's commit), a second row. */
  async writeFetchWrite(url: string): Promise<number> {
    this.write();
    const res = await fetch(url);
    const body = await res.text();
    this.write(body.slice(0, 64));
    return res.status;
  }

  /**
   * One webhook's record: stored, one frame to the streams, one notification sent. With `hub`
   * (`POST /webhook-hops`), crypto-checkout's hops too: one row in `index` and one in `hub`
   * (an object call each) before the notification.
   */
  async hook(record: string, status: string, notifyUrl: string, hub?: string): Promise<number> {
    this.ctx.storage.sql.exec("INSERT INTO rows (at) VALUES (?)", record);
    const sent = this.fanout(status);
    if (hub !== undefined) {
      const other = (name: string) => this.env.FLOOR.get(this.env.FLOOR.idFromName(name));
      const row = JSON.stringify({ id: this.ctx.id.toString(), status });
      await other("index").write(row);
      await other(hub).write(row);
    }
    const res = await fetch(notifyUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ type: "order.status", status }),
    });
    await res.arrayBuffer();
    return sent;
  }

  override async fetch(): Promise<Response> {
    // A JS ReadableStream, as our hubs hold theirs (`worker/core/events/sse.ts`): the cheapest
    // stream measured (README, "What a held stream costs"; a native IdentityTransformStream
    // costs ≈ 60 MB more per 1,000).
    let held: ReadableStreamDefaultController<Uint8Array> | undefined;
    const readable = new ReadableStream<Uint8Array>({
      start: (controller) => {
        held = controller;
        controller.enqueue(
          encoder.encode(
            `retry: 2000\n\nid: ${this.#seq}\nevent: snapshot\ndata: {"orderId":"floor","status":"open"}\n\n`,
          ),
        );
      },
      cancel: () => {
        if (held) this.#streams.delete(held);
      },
    });
    this.#streams.add(held!);
    return new Response(readable, {
      headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" },
    });
  }
}

export default {
  async fetch(request: Request, env: FloorEnv): Promise<Response> {
    const url = new URL(request.url);
    const [, route, name = "floor"] = url.pathname.split("/");
    const stub = () => env.FLOOR.get(env.FLOOR.idFromName(name));
    if (route === "json")
      return new Response(LIST, { headers: { "content-type": "application/json" } });
    if (route === "write" && request.method === "POST")
      return Response.json({ id: await stub().write() });
    if (route === "write-fetch-write" && request.method === "POST") {
      const target = url.searchParams.get("url") ?? "";
      if (!/^http:\/\/(127\.0\.0\.1|localhost):\d+\//.test(target))
        return Response.json(
          { error: { code: "validation_failed", message: "url must be a loopback http URL." } },
          { status: 400 },
        );
      return Response.json({ status: await stub().writeFetchWrite(target) });
    }
    if (route === "fanout" && request.method === "POST")
      return Response.json({ sent: await stub().fanout(url.searchParams.get("status") ?? "x") });
    if ((route === "webhook" || route === "webhook-hops") && request.method === "POST") {
      const body = await request.text();
      if (!(await signed(body, request.headers.get("x-webhook-signature"))))
        return Response.json({ error: { code: "signature_invalid" } }, { status: 401 });
      const { data } = JSON.parse(body) as { data: { status: string } };
      const notify = request.headers.get("x-notify-url") ?? "";
      const hub = route === "webhook-hops" ? `hub-${hubOf(name)}` : undefined;
      return Response.json({ sent: await stub().hook(body, data.status, notify, hub) });
    }
    if (route === "sse") {
      const res = await stub().fetch(request);
      return new Response(res.body, res);
    }
    return Response.json(
      { error: { code: "not_found", message: "No such route." } },
      { status: 404 },
    );
  },
} satisfies ExportedHandler<FloorEnv>;
