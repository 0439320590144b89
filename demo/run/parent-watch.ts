/**
 * @module
 * Notices when the demo runner's parent is gone. `npm run demo` runs `sh -c "node …"`: a
 * SIGTERM to npm (a process manager, a container stop, a CI timeout) is forwarded to `sh`, which
 * dies without passing it on, so the runner never hears a signal; it is re-parented instead
 * (to init or a subreaper). Seeing `process.ppid` change is how it learns to stop everything.
 *
 * Invariant: the check never keeps the process alive on its own (the timer is unref'd).
 */

/**
 * Calls `onGone` once when this process's parent changes (the parent exited).
 * Returns a function that stops watching.
 *
 * @example
 * const stop = watchParent(() => void shutdown("parent exited"));
 */
export function watchParent(onGone: () => void, everyMs = 500): () => void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onGone();
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
