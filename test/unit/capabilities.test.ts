/**
 * The host's one alarm over its capabilities (`core/events/wakes.ts`) and the Lane capability
 * (`core/events/lane-capability.ts`): the earliest wake wins, arming never postpones, and
 * concurrent opens create once.
 */
import { describe, expect, it } from "vitest";
import type { EventLog } from "../../worker/core/events/event-log.ts";
import { Lane } from "../../worker/core/events/lane-capability.ts";
import { bringAlarmForward, earliestWake } from "../../worker/core/events/wakes.ts";
import type { Logger } from "../../worker/lib/log.ts";
import type { UpstreamClient } from "../../worker/service/client.ts";

const wake = (at: number | null) => ({ nextWake: () => at });

/** An alarm storage that records every set. */
function alarmStorage(at: number | null) {
  const sets: number[] = [];
  let alarm = at;
  return {
    sets,
    getAlarm: async () => alarm,
    setAlarm: async (t: number | Date) => {
      alarm = Number(t);
      sets.push(alarm);
    },
  };
}

describe("earliestWake", () => {
  it("takes the earliest wake any capability reports, ignoring those that never wake", () => {
    expect(earliestWake([wake(30), wake(null), wake(10), wake(20)])).toBe(10);
  });

  it("is null when no capability needs to wake", () => {
    expect(earliestWake([wake(null), wake(null)])).toBeNull();
    expect(earliestWake([])).toBeNull();
  });
});

describe("bringAlarmForward", () => {
  it("sets the alarm when none is set, and brings a later one forward", async () => {
    const none = alarmStorage(null);
    await bringAlarmForward(none, 100);
    expect(none.sets).toEqual([100]);
    const later = alarmStorage(500);
    await bringAlarmForward(later, 100);
    expect(later.sets).toEqual([100]);
  });

  it("never postpones a sooner alarm, and does nothing for no wake", async () => {
    const sooner = alarmStorage(50);
    await bringAlarmForward(sooner, 100);
    await bringAlarmForward(sooner, null);
    expect(sooner.sets).toEqual([]);
  });

  it("asks the capabilities only when the alarm is not already due", async () => {
    let asked = 0;
    const earliest = () => {
      asked++;
      return 100;
    };
    const due = alarmStorage(900);
    await bringAlarmForward(due, earliest, 1000);
    expect([asked, due.sets]).toEqual([0, []]);
    const future = alarmStorage(5000);
    await bringAlarmForward(future, earliest, 1000);
    expect([asked, future.sets]).toEqual([1, [100]]);
    const none = alarmStorage(null);
    await bringAlarmForward(none, () => null, 1000);
    expect(none.sets).toEqual([]);
  });
});

describe("Lane", () => {
  const lane = () =>
    new Lane({
      sql: {} as SqlStorage,
      log: {} as EventLog,
      logger: () => ({}) as Logger,
      webhookClient: () => ({}) as UpstreamClient,
      arm: async () => {},
    });

  it("never needs to wake: it keeps no work across restarts", () => {
    expect(lane().nextWake()).toBeNull();
  });

  it("runs tasks one at a time, in the order queued", async () => {
    const l = lane();
    const order: string[] = [];
    const slow = l.run(async () => {
      await new Promise((r) => setTimeout(r, 5));
      order.push("first");
    });
    const fast = l.run(async () => {
      order.push("second");
    });
    await Promise.all([slow, fast]);
    expect(order).toEqual(["first", "second"]);
  });

  it("openOnce creates once under concurrent opens; the others find its result", async () => {
    const l = lane();
    let made: string | null = null;
    let creates = 0;
    const open = () =>
      l.openOnce(
        () => made,
        async () => {
          creates += 1;
          await new Promise((r) => setTimeout(r, 5));
          made = "created";
          return made;
        },
      );
    expect(await Promise.all([open(), open(), open()])).toEqual(["created", "created", "created"]);
    expect(creates).toBe(1);
  });
});
