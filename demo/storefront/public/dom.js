/**
 * @module
 * Small DOM helpers for the demo pages. Text always goes through `textContent`, never through
 * `innerHTML`: ledger and notification data come from other processes.
 */

/** h("li", { class: "x" }, "text", child) */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Number.POSITIVE_INFINITY)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** POST JSON, resolve with { status, body }. */
export async function postJson(url, body) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body ?? {}),
  });
  const text = await response.text();
  let parsed = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = { raw: text };
  }
  return { status: response.status, body: parsed };
}

/** The merchant views' cadence: events drive refreshes, a slow poll catches the rest. */
export const SLOW_POLL_MS = 5000;
/** Refreshes asked for within this gap (a burst of widget events) share one fetch. */
export const MIN_GAP_MS = 500;

/**
 * Calls `task` now, every `slowMs`, and soon after each `refresh()`; never overlapping itself
 * and never twice within `minGapMs` (a burst of `refresh()` calls makes one call). The
 * merchant panels refresh on the widget's `checkout:status` events and poll slowly for what
 * no event announces (a notification delivered, a refund recorded).
 *
 * @example
 * const ledger = refresher(loadLedger);
 * widget.addEventListener("checkout:status", ledger.refresh);
 */
export function refresher(task, { slowMs = SLOW_POLL_MS, minGapMs = MIN_GAP_MS } = {}) {
  let running = false;
  let lastStart = Number.NEGATIVE_INFINITY;
  let pending = null;
  let again = false;
  const run = async () => {
    pending = null;
    if (running) {
      again = true;
      return;
    }
    running = true;
    lastStart = Date.now();
    try {
      await task();
    } catch (error) {
      console.warn(error);
    } finally {
      running = false;
      if (again) {
        again = false;
        refresh();
      }
    }
  };
  const refresh = () => {
    if (pending !== null) return;
    const wait = Math.max(0, lastStart + minGapMs - Date.now());
    pending = setTimeout(run, wait);
  };
  run();
  const timer = setInterval(refresh, slowMs);
  const stop = () => {
    clearInterval(timer);
    clearTimeout(pending ?? undefined);
  };
  return { refresh, stop };
}
