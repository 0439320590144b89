/**
 * @module
 * Live status: server-sent events, with polling as the fallback.
 *
 * Invariants: EventSource resumes with `Last-Event-ID` on its own; a final snapshot closes the
 * source (the server also closes and answers a reconnect with 204). Three errors in a row
 * without any message, a source the browser gave up on (`CLOSED`: an HTTP error or a wrong
 * content type, which EventSource never retries) before a final snapshot, or no EventSource at
 * all, switch to polling every 3 s, so the shopper's status never freezes.
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
    let done = false;
    const es = new EventSource(eventsUrl);
    source = es;
    es.addEventListener("snapshot", (event) => {
      errors = 0;
      const snapshot = JSON.parse((event as MessageEvent<string>).data) as S;
      onSnapshot(snapshot);
      if (snapshot.final) {
        done = true;
        es.close();
      }
    });
    es.onerror = () => {
      errors += 1;
      // readyState 2 = CLOSED: the browser will not reconnect by itself.
      if (!stopped && !done && (errors >= 3 || es.readyState === 2)) {
        done = true;
        startPolling();
      }
    };
  }
  return () => {
    stopped = true;
    source?.close();
    clearTimeout(timer);
  };
}
