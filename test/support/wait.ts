/**
 * @module
 * Waiting in tests, written once for every project (worker, e2e): a plain pause, and polling
 * until a condition holds. Plain timers only, so the module runs in workerd and in Node alike.
 * Tests assert what an object decided against its own clock, never against these waits
 * (CONTRIBUTING "Tests").
 */

/**
 * Resolves after `ms` milliseconds (real time: let the other side's work or alarm run).
 *
 * @example
 * await sleep(200);
 */
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Polls `check` every 100 ms until it returns a value other than null, at most `tries` times
 * (alarms run on their own schedule); throws when the condition was never reached.
 *
 * @example
 * const inbox = await eventually(async () => ((await notes()).length > 0 ? notes : null));
 */
export async function eventually<T>(check: () => Promise<T | null>, tries = 100): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const value = await check();
    if (value !== null) return value;
    await sleep(100);
  }
  throw new Error("condition not reached");
}
