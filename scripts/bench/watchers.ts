/**
 * @module
 * SSE watchers for the bench, spread over worker threads (`scripts/bench-watchers.ts`): open
 * them, ask for arrival times, close them. Bounded: every wait has a deadline.
 */
import { Worker } from "node:worker_threads";

/** A set of open watcher threads. */
export interface Watchers {
  /** Streams that received their first event (the snapshot). */
  opened: number;
  /** Arrival times (ms since epoch) of events of `status`, across every stream. */
  times(status: string): Promise<number[]>;
  /** Per stream (in the order of the URLs given), `[status, arrival]` of every later event. */
  events(): Promise<[string, number][][]>;
  /** Closes every stream and stops the threads. */
  close(): Promise<void>;
}

const THREADS = Number(process.env.BENCH_WATCHER_THREADS ?? 4);

/** One thread: its `opened` report, and answers to one question at a time. */
class Thread {
  readonly worker: Worker;
  opened = 0;
  readonly ready: Promise<void>;
  #pending: ((m: unknown) => void) | null = null;
  constructor(urls: string[], headers: Record<string, string>) {
    this.worker = new Worker(new URL("../bench-watchers.ts", import.meta.url), {
      workerData: { urls, headers },
    });
    let signal = () => {};
    this.ready = urls.length ? new Promise<void>((r) => (signal = r)) : Promise.resolve();
    this.worker.on("message", (m: { opened?: number }) => {
      if (m.opened !== undefined) {
        this.opened = m.opened;
        signal();
      } else {
        this.#pending?.(m);
        this.#pending = null;
      }
    });
  }
  ask<T>(message: object): Promise<T> {
    return new Promise((resolve) => {
      this.#pending = resolve as (m: unknown) => void;
      this.worker.postMessage(message);
    });
  }
}

/**
 * Opens one stream per URL (repeat a URL to watch it many times) and resolves once all got
 * their first event, or after `timeoutMs` with however many did.
 *
 * @example
 * const w = await openWatchers(Array(1000).fill(url)); // w.opened === 1000
 */
export async function openWatchers(
  urls: string[],
  timeoutMs = 60_000,
  /** Extra request headers of every stream. */
  headers: Record<string, string> = {},
): Promise<Watchers> {
  const slices = Array.from({ length: THREADS }, (_, i) =>
    urls.filter((_, j) => j % THREADS === i),
  );
  const threads = slices.map((slice) => new Thread(slice, headers));
  await Promise.race([
    Promise.all(threads.map((t) => t.ready)),
    new Promise((r) => setTimeout(r, timeoutMs)),
  ]);
  return {
    opened: threads.reduce((n, t) => n + t.opened, 0),
    async times(status) {
      const lists = await Promise.all(
        threads.map((t) => t.ask<{ times: number[] }>({ report: status })),
      );
      return lists.flatMap((l) => l.times);
    },
    async events() {
      const parts = await Promise.all(
        threads.map((t) => t.ask<{ events: [string, number][][] }>({ dump: true })),
      );
      // Undo the round-robin split: stream j lives in thread j % THREADS at j / THREADS.
      return urls.map((_, j) => parts[j % THREADS]!.events[Math.floor(j / THREADS)]!);
    },
    async close() {
      await Promise.all(threads.map((t) => t.ask({ close: true })));
      await Promise.all(threads.map((t) => t.worker.terminate()));
    },
  };
}
