/**
 * The global loading overlay's timing (spec 01 §9): visible while any call is pending, hidden
 * `closeDelayMs` (300 ms) after the last pending call ends. A call that starts inside that window
 * keeps the overlay up without a flicker. Timers are injectable so the logic runs in tests.
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

export function createLoadingTracker(closeDelayMs = OVERLAY_CLOSE_DELAY_MS, timers: LoadingTimers = realTimers): LoadingTracker {
  let pending = 0;
  let visible = false;
  let closeTimer: unknown = null;
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
      setVisible(true);
    },
    end() {
      if (pending === 0) return;
      pending -= 1;
      if (pending > 0) return;
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
