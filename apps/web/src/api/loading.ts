/**
 * The global loading indicator's timing (spec 01 §9): it appears only when a call is still pending
 * `showDelayMs` (250 ms) after it started, so the usual fast answers show nothing, stays while any call
 * is pending, and closes `closeDelayMs` (300 ms) after the last one ends. A call that starts inside that
 * window keeps it up without a flicker. Timers are injectable so the logic runs in tests.
 */
export interface LoadingTracker {
  begin: () => void;
  end: () => void;
  isVisible: () => boolean;
  pending: () => number;
  subscribe: (listener: () => void) => () => void;
}

export interface LoadingTimers {
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

const realTimers: LoadingTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export const OVERLAY_CLOSE_DELAY_MS = 300;
export const OVERLAY_SHOW_DELAY_MS = 250;

export function createLoadingTracker(
  closeDelayMs = OVERLAY_CLOSE_DELAY_MS,
  timers: LoadingTimers = realTimers,
  showDelayMs = OVERLAY_SHOW_DELAY_MS,
): LoadingTracker {
  let pending = 0;
  let visible = false;
  let closeTimer: unknown = null;
  let showTimer: unknown = null;
  const listeners = new Set<() => void>();

  const setVisible = (next: boolean): void => {
    if (visible === next) return;
    visible = next;
    for (const l of listeners) l();
  };
  const cancelClose = (): void => {
    if (closeTimer !== null) {
      timers.clearTimeout(closeTimer);
      closeTimer = null;
    }
  };

  return {
    begin() {
      pending += 1;
      cancelClose();
      if (visible || showTimer !== null) return;
      showTimer = timers.setTimeout(() => {
        showTimer = null;
        if (pending > 0) setVisible(true);
      }, showDelayMs);
    },
    end() {
      if (pending === 0) return;
      pending -= 1;
      if (pending > 0) return;
      if (showTimer !== null) {
        // Answered before the indicator appeared: nothing to show or close.
        timers.clearTimeout(showTimer);
        showTimer = null;
        return;
      }
      cancelClose();
      closeTimer = timers.setTimeout(() => {
        closeTimer = null;
        if (pending === 0) setVisible(false);
      }, closeDelayMs);
    },
    isVisible: () => visible,
    pending: () => pending,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
