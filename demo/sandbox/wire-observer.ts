/**
 * @module wire-observer
 * A test hook: every answer of the public API and every webhook body the sandbox produces can
 * be handed to one observer, so a contract test checks them all against the service's published
 * types without the sandbox knowing those schemas. Process-wide (like the currency catalogue)
 * and off by default: with no observer nothing is copied or kept.
 *
 * What is observed is the sandbox's own answer, before fault injection changes it (a `malformed`
 * or `stale` fault is a deliberate misbehaviour of the service, not its contract).
 */

/** One thing the sandbox sent: an API answer, or a webhook body. */
export type WireObservation =
  | { kind: "answer"; method: string; path: string; status: number; body: string }
  | { kind: "webhook"; body: string };

let observer: ((observation: WireObservation) => void) | null = null;

/**
 * Sets (or, with null, removes) the observer.
 * @example
 * observeWire((o) => seen.push(o));
 */
export function observeWire(fn: ((observation: WireObservation) => void) | null): void {
  observer = fn;
}

/**
 * True when an observer is set (callers skip copying a body otherwise).
 * @example
 * if (wireObserved()) reportWire({ kind: "webhook", body });
 */
export function wireObserved(): boolean {
  return observer !== null;
}

/**
 * Hands one observation to the observer, if any.
 * @example
 * reportWire({ kind: "webhook", body });
 */
export function reportWire(observation: WireObservation): void {
  observer?.(observation);
}

/**
 * Reports an API answer (its text read from a clone, so the response itself is untouched).
 * @example
 * await reportAnswer("GET", "/currencies", res);
 */
export async function reportAnswer(method: string, path: string, res: Response): Promise<void> {
  if (!observer) return;
  const body = await res.clone().text();
  reportWire({ kind: "answer", method, path, status: res.status, body });
}
