/**
 * @module
 * Live status: server-sent events, with polling as the fallback.
 *
 * Invariants: EventSource resumes with `Last-Event-ID` on its own; a final snapshot closes the
 * source (the server also closes and answers a reconnect with 204). Three errors in a row
 * without any message, or no EventSource at all, switch to polling every 3 s.
 */

/** Polling period when SSE is unavailable. */
export const POLL_MS = 3000;

/**
 * Follows a checkout; returns a function that stops following.
 *
 * @example
 * const stop = follow(api.eventsUrl(id), () => api.get(id), render);
 */
export function follow<S extends { final: boolean }>(
  eventsUrl: string,
  poll: () => Promise<S>,
  onSnapshot: (snapshot: S) => void,
): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let source: EventSource | undefined;

  const startPolling = () => {
    source?.close();
    const tick = async () => {
      if (stopped) return;
      try {
        const snapshot = await poll();
        onSnapshot(snapshot);
        if (snapshot.final) return;
      } catch {
        // Keep polling through transient failures.
      }
      if (!stopped) timer = setTimeout(tick, POLL_MS);
    };
    timer = setTimeout(tick, POLL_MS);
  };

  if (typeof EventSource !== "function") {
    startPolling();
  } else {
    let errors = 0;
    source = new EventSource(eventsUrl);
    source.addEventListener("snapshot", (event) => {
      errors = 0;
      const snapshot = JSON.parse((event as MessageEvent<string>).data) as S;
      onSnapshot(snapshot);
      if (snapshot.final) source?.close();
    });
    source.onerror = () => {
      errors += 1;
      if (errors >= 3 && !stopped) startPolling();
    };
  }
  return () => {
    stopped = true;
    source?.close();
    clearTimeout(timer);
  };
}
