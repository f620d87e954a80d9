/**
 * "At most once per window": returns true when the action may run now and starts a new window.
 * Used for the 'login state expired' toast, suppressed for 5 s after showing (spec 01 §8, §9).
 */
export function createThrottle(windowMs: number, now: () => number = Date.now): () => boolean {
  let last = Number.NEGATIVE_INFINITY;
  return () => {
    const t = now();
    if (t - last < windowMs) return false;
    last = t;
    return true;
  };
}

export const LOGIN_EXPIRED_TOAST_WINDOW_MS = 5000;
