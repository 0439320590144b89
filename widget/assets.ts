/**
 * @module
 * On-demand pieces of the widget (extra locales, the QR encoder) are small scripts served
 * beside widget.js. Each registers itself on a page global when it runs, so the script-tag
 * bundle stays small and a second widget on the page reuses what the first loaded.
 */

const pending = new Map<string, Promise<void>>();

/**
 * Loads a script once; resolves when it ran, failed, or after `timeoutMs` (callers fall back).
 *
 * @example
 * await loadScriptOnce("https://pay.example.com/qr.js");
 */
export function loadScriptOnce(url: string, timeoutMs = 5000): Promise<void> {
  let promise = pending.get(url);
  if (!promise) {
    promise = new Promise<void>((resolve) => {
      const script = document.createElement("script");
      script.src = url;
      script.async = true;
      script.onload = () => resolve();
      script.onerror = () => {
        pending.delete(url);
        resolve();
      };
      setTimeout(resolve, timeoutMs);
      document.head.append(script);
    });
    pending.set(url, promise);
  }
  return promise;
}

/** A page global shared by every widget instance. */
export function pageGlobal<T>(name: string, initial: () => T): T {
  const w = globalThis as unknown as Record<string, T | undefined>;
  w[name] ??= initial();
  return w[name];
}
