/**
 * @module
 * The bench's floor worker (see `wrangler.toml` beside it): what the runtime itself costs for
 * the three things crypto-checkout's budgets measure, with nothing of ours in between.
 *
 * - `GET /json`: a JSON answer the size of a currency list, from memory;
 * - `POST /write/:name`: one Durable Object call that inserts one SQLite row;
 * - `GET /sse/:name` + `POST /fanout/:name`: SSE streams held by one Durable Object, and one
 *   frame written to all of them (encoded once, as `worker/core/events/sse.ts` does).
 *
 * Frames carry `"orderId":…,"status":…` like a checkout snapshot, so the bench's watcher
 * threads read both the same way.
 */
import { DurableObject } from "cloudflare:workers";

interface FloorEnv {
  FLOOR: DurableObjectNamespace<FloorObject>;
}

const encoder = new TextEncoder();
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
  readonly #writers = new Set<WritableStreamDefaultWriter<Uint8Array>>();
  #seq = 0;

  constructor(ctx: DurableObjectState, env: FloorEnv) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS rows (id INTEGER PRIMARY KEY, at TEXT)");
  }

  /** Inserts one row and answers its id. */
  write(): number {
    this.ctx.storage.sql.exec("INSERT INTO rows (at) VALUES (?)", new Date().toISOString());
    return Number(this.ctx.storage.sql.exec("SELECT last_insert_rowid() AS id").one().id);
  }

  /** Writes one frame to every open stream; answers how many. */
  fanout(status: string): number {
    this.#seq += 1;
    const frame = `id: ${this.#seq}\nevent: snapshot\ndata: {"orderId":"floor","status":"${status}"}\n\n`;
    const bytes = encoder.encode(frame);
    for (const writer of this.#writers)
      writer.write(bytes).catch(() => this.#writers.delete(writer));
    return this.#writers.size;
  }

  override async fetch(): Promise<Response> {
    const { readable, writable } = new IdentityTransformStream();
    const writer = writable.getWriter();
    this.#writers.add(writer);
    writer
      .write(
        encoder.encode(
          `retry: 2000\n\nid: ${this.#seq}\nevent: snapshot\ndata: {"orderId":"floor","status":"open"}\n\n`,
        ),
      )
      .catch(() => this.#writers.delete(writer));
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
    if (route === "fanout" && request.method === "POST")
      return Response.json({ sent: await stub().fanout(url.searchParams.get("status") ?? "x") });
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
