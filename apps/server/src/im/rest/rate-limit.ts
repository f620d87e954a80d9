/**
 * A token bucket per caller for the IM REST API: `perSecond` tokens a second, holding at most two
 * seconds' worth, so a client may burst briefly but not sustain more than its rate. Buckets live in this
 * process (several processes each allow the rate; the limit protects a process, not a global quota).
 * Time comes from the caller (the app clock), which keeps the tests deterministic.
 */
export interface RateLimiter {
  /** Takes one token for `key` at `nowMs`; false when the bucket is empty. */
  take(key: string, nowMs: number): boolean;
}

/** Buckets idle this long are full again and are forgotten, which bounds the map by active callers. */
const IDLE_MS = 60_000;

export function createRateLimiter(perSecond: number): RateLimiter {
  if (perSecond <= 0) return { take: () => true };
  const capacity = perSecond * 2;
  const buckets = new Map<string, { tokens: number; at: number }>();
  let sweptAt = 0;
  return {
    take(key, nowMs) {
      if (nowMs - sweptAt > IDLE_MS) {
        for (const [k, b] of buckets) if (nowMs - b.at > IDLE_MS) buckets.delete(k);
        sweptAt = nowMs;
      }
      const b = buckets.get(key) ?? { tokens: capacity, at: nowMs };
      b.tokens = Math.min(capacity, b.tokens + (Math.max(0, nowMs - b.at) * perSecond) / 1000);
      b.at = nowMs;
      buckets.set(key, b);
      if (b.tokens < 1) return false;
      b.tokens -= 1;
      return true;
    },
  };
}
