import { describe, expect, it } from "vitest";
import { createLoadingTracker, type LoadingTimers } from "./loading";

/** Manual clock: timers fire only when the test advances time. */
function fakeTimers() {
  let now = 0;
  let seq = 0;
  const pending = new Map<number, { at: number; fn: () => void }>();
  const timers: LoadingTimers = {
    setTimeout: (fn, ms) => {
      seq += 1;
      pending.set(seq, { at: now + ms, fn });
      return seq;
    },
    clearTimeout: (h) => {
      pending.delete(h as number);
    },
  };
  const advance = (ms: number) => {
    now += ms;
    for (const [id, t] of [...pending]) {
      if (t.at <= now) {
        pending.delete(id);
        t.fn();
      }
    }
  };
  return { timers, advance };
}

describe("loading overlay timing (spec 01 §9)", () => {
  it("a call answered within 250 ms shows nothing at all", () => {
    const { timers, advance } = fakeTimers();
    const tracker = createLoadingTracker(300, timers, 250);
    const changes: boolean[] = [];
    tracker.subscribe(() => changes.push(tracker.isVisible()));
    tracker.begin();
    advance(249);
    tracker.end();
    advance(1000);
    expect(changes).toEqual([]);
  });

  it("shows when a call lasts past 250 ms and closes 300 ms after the last pending call", () => {
    const { timers, advance } = fakeTimers();
    const tracker = createLoadingTracker(300, timers, 250);
    tracker.begin();
    expect(tracker.isVisible()).toBe(false);
    advance(250);
    expect(tracker.isVisible()).toBe(true);
    tracker.end();
    advance(299);
    expect(tracker.isVisible()).toBe(true);
    advance(1);
    expect(tracker.isVisible()).toBe(false);
  });

  it("stays up while any call is pending", () => {
    const { timers, advance } = fakeTimers();
    const tracker = createLoadingTracker(300, timers, 250);
    tracker.begin();
    tracker.begin();
    tracker.end();
    advance(1000);
    expect(tracker.isVisible()).toBe(true);
    expect(tracker.pending()).toBe(1);
    tracker.end();
    advance(300);
    expect(tracker.isVisible()).toBe(false);
  });

  it("a call starting inside the close window keeps it up without a flicker", () => {
    const { timers, advance } = fakeTimers();
    const tracker = createLoadingTracker(300, timers, 250);
    const changes: boolean[] = [];
    tracker.subscribe(() => changes.push(tracker.isVisible()));
    tracker.begin();
    advance(250);
    tracker.end();
    advance(200);
    tracker.begin();
    advance(500);
    expect(tracker.isVisible()).toBe(true);
    tracker.end();
    advance(300);
    expect(changes).toEqual([true, false]);
  });

  it("an extra end() does not go negative", () => {
    const { timers } = fakeTimers();
    const tracker = createLoadingTracker(300, timers);
    tracker.end();
    expect(tracker.pending()).toBe(0);
    expect(tracker.isVisible()).toBe(false);
  });
});
