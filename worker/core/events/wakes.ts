/**
 * @module
 * The one alarm of an object, taken from its capabilities' wakes: each capability (Outbox,
 * Follower, Lane, the index feed) reports when it next needs to wake, none owns the alarm,
 * and the object's one `arm()` sets it to the earliest.
 *
 * Invariant: arming only ever brings the alarm forward (never postpones a wake some
 * capability asked for); only the alarm's own run sets it to the next wake outright.
 */

/** A capability's wake: when it next needs the object awake (epoch ms), or null for never. */
export interface Wakes {
  nextWake(): number | null;
}

/**
 * The earliest wake any capability reports, or null.
 *
 * @example
 * earliestWake([{ nextWake: () => 20 }, { nextWake: () => null }, { nextWake: () => 10 }]); // 10
 */
export function earliestWake(parts: readonly Wakes[]): number | null {
  let earliest: number | null = null;
  for (const part of parts) {
    const at = part.nextWake();
    if (at !== null && (earliest === null || at < earliest)) earliest = at;
  }
  return earliest;
}

/**
 * Brings the alarm forward to `at` (null: nothing to do); never postpones it. `at` may be a
 * function: it is asked only when the alarm is not already due (`now` or earlier), since
 * nothing can be earlier than a due alarm: after most webhooks the queued notification has
 * already made it due, and the capabilities' wake queries are skipped.
 *
 * @example
 * await bringAlarmForward(ctx.storage, () => earliestWake(parts));
 */
export async function bringAlarmForward(
  storage: Pick<DurableObjectStorage, "getAlarm" | "setAlarm">,
  at: number | null | (() => number | null),
  now: number = Date.now(),
): Promise<void> {
  if (at === null) return;
  const set = await storage.getAlarm();
  if (typeof at === "function") {
    if (set !== null && set <= now) return;
    at = at();
    if (at === null) return;
  }
  if (set === null || set > at) await storage.setAlarm(at);
}
