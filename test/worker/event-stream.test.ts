/**
 * The EventStream capability (`worker/core/events/event-stream.ts`) on a real object's event log,
 * with a host that records what it was asked: 404 with nothing to render; the first watcher
 * brings reads forward and arms, later ones do not; an appended event reaches the watchers
 * only when published.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { EventLog } from "../../worker/core/events/event-log.ts";
import { EventStream } from "../../worker/core/events/event-stream.ts";
import { openCheckout, uniqueSub } from "./helpers.ts";

type Snap = { final: boolean; seq: number; note: string };

describe("the EventStream capability", () => {
  it("404s with nothing to render; the first watcher hurries reads and arms, later ones do not, the last to leave arms; publish reaches them", async () => {
    const { body } = await openCheckout({ sub: uniqueSub("stream") });
    const stub = env.ORDERS.get(env.ORDERS.idFromName(body.data.id));
    const result = await runInDurableObject(
      stub,
      async (_o: unknown, state: DurableObjectState) => {
        const calls: string[] = [];
        const events = new EventStream<Snap>(new EventLog(state.storage.sql), {
          hurryReads: () => void calls.push("hurry"),
          arm: async () => void calls.push("arm"),
          logger: () =>
            ({ debug: () => {}, info: () => {}, warn: () => {}, error: () => {} }) as never,
        });
        const request = () => new Request("https://x/v1/checkouts/c/events");
        const missing = await events.stream(request(), null, "No such thing.");
        const render = (seq: number): Snap => ({ final: false, seq, note: "now" });
        const first = await events.stream(request(), render, "No such thing.");
        const second = await events.stream(request(), render, "No such thing.");
        const watched = [events.watched, events.hub.size];
        const whileWatched = [...calls];
        const event = state.storage.transactionSync(() =>
          events.append("thing.changed", "changed", (seq) => ({
            final: false,
            seq,
            note: "changed",
          })),
        );
        const published = events.publish(event, "thing.changed", {});
        const reader = first.body!.getReader();
        const decoder = new TextDecoder();
        let text = "";
        while (!text.includes('"note":"changed"')) {
          const chunk = await reader.read();
          if (chunk.done) break;
          text += decoder.decode(chunk.value);
        }
        await reader.cancel();
        await second.body!.cancel();
        // The last watcher left: the object is armed again (the reconciler hears it).
        for (let i = 0; i < 50 && events.hub.size > 0; i++)
          await new Promise((r) => setTimeout(r, 5));
        return {
          status: missing.status,
          whileWatched,
          calls,
          watched,
          published,
          sawChange: text.includes('"note":"changed"'),
        };
      },
    );
    expect(result.status).toBe(404);
    expect(result.whileWatched).toEqual(["hurry", "arm"]);
    expect(result.calls).toEqual(["hurry", "arm", "arm"]);
    expect(result.watched).toEqual([true, 2]);
    expect(result.published.note).toBe("changed");
    expect(result.sawChange).toBe(true);
  });
});
