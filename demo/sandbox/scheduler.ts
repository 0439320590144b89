/**
 * @module scheduler
 * Every timer and in-flight outgoing request of a sandbox, so that closing it stops retries,
 * releases held responses and aborts deliveries: nothing outlives `dispose()`.
 */

/** Tracks timers, cancellable sleeps and an abort signal for outgoing requests. */
export interface Scheduler {
  /** Runs `fn` after `ms`, unless disposed first. */
  later(fn: () => void, ms: number): void;
  /** Resolves after `ms`, or at once when disposed. */
  sleep(ms: number): Promise<void>;
  /** Aborted on dispose; combine with per-request timeouts. */
  readonly signal: AbortSignal;
  readonly disposed: boolean;
  dispose(): void;
}

function unref(timer: unknown): void {
  (timer as { unref?: () => void }).unref?.();
}

/**
 * Creates a scheduler. Timers are `unref()`ed where the runtime supports it.
 * @example
 * const s = createScheduler();
 * s.later(() => console.log("retry"), 1000);
 * s.dispose(); // the retry never runs
 */
export function createScheduler(): Scheduler {
  const timers = new Map<ReturnType<typeof setTimeout>, () => void>();
  const controller = new AbortController();
  let disposed = false;
  const track = (fn: () => void, ms: number, onDispose: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.set(t, onDispose);
    return t;
  };
  return {
    later(fn, ms) {
      if (!disposed) unref(track(fn, ms, () => {}));
    },
    sleep(ms) {
      if (disposed) return Promise.resolve();
      return new Promise((resolve) => {
        track(resolve, ms, resolve);
      });
    },
    signal: controller.signal,
    get disposed() {
      return disposed;
    },
    dispose() {
      disposed = true;
      for (const [t, onDispose] of timers) {
        clearTimeout(t);
        onDispose();
      }
      timers.clear();
      controller.abort();
    },
  };
}

/**
 * A repeating timer that never keeps the process alive.
 * @example
 * const stop = every(1000, sweep);
 * stop();
 */
export function every(ms: number, fn: () => void): () => void {
  const t = setInterval(fn, ms);
  unref(t);
  return () => clearInterval(t);
}
