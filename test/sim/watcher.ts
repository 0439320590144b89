/**
 * @module watcher
 * A shopper's open widget: reads the checkout's SSE stream in the background, keeps the last
 * snapshot it received, and reconnects with `Last-Event-ID` when the stream breaks (an object
 * restart) as the widget does, until the order is final.
 */
import type { CheckoutSnapshot } from "../../packages/contract/src/http-api.ts";
import { worker } from "../worker/helpers.ts";

export class Watcher {
  last: CheckoutSnapshot | null = null;
  reconnects = 0;
  private stopped = false;
  private reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  private readonly done: Promise<void>;
  private readonly checkoutId: string;

  constructor(checkoutId: string) {
    this.checkoutId = checkoutId;
    this.done = this.loop();
  }

  private async loop(): Promise<void> {
    while (!this.stopped && this.reconnects < 30) {
      const headers: Record<string, string> = { accept: "text/event-stream" };
      if (this.last) headers["last-event-id"] = String(this.last.seq);
      try {
        const res = await worker(`/v1/checkouts/${this.checkoutId}/events`, { headers });
        if (res.status === 204) return; // final: nothing more will come
        if (res.status !== 200 || !res.body) {
          // A refused connect (the object restarting): try again, as the widget does.
          await res.body?.cancel();
          throw new Error(`events answered ${res.status}`);
        }
        this.reader = res.body.getReader();
        await this.read(this.reader);
      } catch {
        // A broken stream (restarted object): reconnect, as the widget does.
      }
      if (this.last?.final) return;
      this.reconnects += 1;
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  private async read(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let cut = buffer.indexOf("\n\n");
      while (cut >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (data && /^event: snapshot$/m.test(block)) this.last = JSON.parse(data);
        cut = buffer.indexOf("\n\n");
      }
    }
  }

  /** Waits (up to `ms` of real time) until the last snapshot received has `seq`. */
  async caughtUp(seq: number, ms = 1500): Promise<boolean> {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      if (this.last && this.last.seq >= seq) return true;
      // A final snapshot ends the stream: nothing newer can arrive, so waiting is pointless.
      if (this.last?.final) return false;
      await new Promise((r) => setTimeout(r, 10));
    }
    return this.last?.seq === seq;
  }

  /** Closes the stream (the shopper leaves). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.reader?.cancel().catch(() => {});
    await Promise.race([this.done, new Promise((r) => setTimeout(r, 200))]);
  }
}
