/**
 * @module
 * Live status: server-sent events, with polling as the fallback.
 *
 * Invariants: EventSource resumes with `Last-Event-ID` on its own; a final snapshot closes the
 * source (the server also closes and answers a reconnect with 204). The worker closes every
 * stream after 10 min by design, so an `open` resets the error count: only three errors in a
 * row without a working connection, a source the browser gave up on (`CLOSED`: an HTTP error or
 * a wrong content type, which EventSource never retries) before a final snapshot, or no
 * EventSource at all, switch to polling. Polling runs every 3 s and doubles its delay after each
 * transient failure (up to 1 min); a non-transient failure (not found, token refused) stops it
 * and is reported, since asking again cannot change the answer.
 *
 * Connection state: `onLink(false)` when the stream errs, a poll fails transiently or the
 * browser goes offline; `onLink(true)` once data flows again. Back online, one read catches up
 * at once instead of waiting for the next retry (EventSource's own backoff may be long).
 */
import { ApiFailure } from "./api.ts";
import { TRANSIENT } from "./errors.ts";

/** Polling period when SSE is unavailable. */
export const POLL_MS = 3000;
/** Longest wait between polls after repeated transient failures. */
export const POLL_MAX_MS = 60_000;

/**
 * Follows a checkout; returns a function that stops following. `onFatal` gets the failure that
 * stopped polling for good; `onLink` hears whether the connection works (see the module doc).
 *
 * @example
 * const stop = follow(api.eventsUrl(id), () => api.get(id), render, showError);
 */
export function follow<S extends { final: boolean }>(
  eventsUrl: string,
  poll: () => Promise<S>,
  onSnapshot: (snapshot: S) => void,
  onFatal: (failure: ApiFailure) => void,
  onLink: (up: boolean) => void = () => {},
): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let source: EventSource | undefined;

  const startPolling = () => {
    source?.close();
    let delay = POLL_MS;
    const tick = async () => {
      if (stopped) return;
      try {
        const snapshot = await poll();
        onLink(true);
        onSnapshot(snapshot);
        if (snapshot.final) return;
        delay = POLL_MS;
      } catch (e) {
        if (e instanceof ApiFailure && !TRANSIENT.has(e.code)) return stopped || onFatal(e);
        onLink(false);
        delay = Math.min(delay * 2, POLL_MAX_MS);
      }
      if (!stopped) timer = setTimeout(tick, delay);
    };
    timer = setTimeout(tick, delay);
  };

  if (typeof EventSource !== "function") {
    startPolling();
  } else {
    let errors = 0;
    let done = false;
    const es = new EventSource(eventsUrl);
    source = es;
    es.onopen = () => {
      errors = 0;
      onLink(true);
    };
    es.addEventListener("snapshot", (event) => {
      errors = 0;
      onLink(true);
      const snapshot = JSON.parse((event as MessageEvent<string>).data) as S;
      onSnapshot(snapshot);
      if (snapshot.final) {
        done = true;
        es.close();
      }
    });
    es.onerror = () => {
      errors += 1;
      // One error is the worker's planned 10-minute close (EventSource reconnects at once):
      // only a second one in a row, or the browser being offline, means the link is down.
      if (!done && (errors > 1 || !navigator.onLine)) onLink(false);
      // readyState 2 = CLOSED: the browser will not reconnect by itself.
      if (!stopped && !done && (errors >= 3 || es.readyState === 2)) {
        done = true;
        startPolling();
      }
    };
  }
  const offline = () => onLink(false);
  const online = () =>
    poll().then(
      (snapshot) => {
        if (stopped) return;
        onLink(true);
        onSnapshot(snapshot);
      },
      () => {},
    );
  addEventListener("offline", offline);
  addEventListener("online", online);
  return () => {
    stopped = true;
    source?.close();
    clearTimeout(timer);
    removeEventListener("offline", offline);
    removeEventListener("online", online);
  };
}
