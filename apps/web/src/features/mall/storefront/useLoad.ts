import { useCallback, useEffect, useRef, useState } from "react";

/**
 * A call's state for a page (what react-query did here, without its 12 kB): loads when `key` changes,
 * ignores an answer that arrives after the key moved on, reloads on demand or every `pollMs` while
 * `poll(data)` says so (an order still delivering). Loading is derived: the answer held is not yet the
 * one for this key and this reload.
 */
export function useLoad<T>(
  key: string,
  fn: () => Promise<T>,
  options: { enabled?: boolean; pollMs?: number; poll?: (data: T) => boolean } = {},
) {
  const [state, setState] = useState<{ key: string; tick: number; data?: T; error?: unknown } | null>(null);
  const [tick, setTick] = useState(0);
  const latest = useRef({ fn, poll: options.poll });
  useEffect(() => {
    latest.current = { fn, poll: options.poll };
  });
  const enabled = options.enabled !== false;
  const pollMs = options.pollMs;
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    let timer: number | undefined;
    latest.current.fn().then(
      (data) => {
        if (!live) return;
        setState({ key, tick, data });
        if (pollMs && latest.current.poll?.(data)) timer = window.setTimeout(() => setTick((n) => n + 1), pollMs);
      },
      (error: unknown) => {
        if (live) setState({ key, tick, error });
      },
    );
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [key, enabled, tick, pollMs]);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  const sameKey = state?.key === key;
  return {
    data: sameKey ? state.data : undefined,
    error: sameKey ? state.error : undefined,
    loading: enabled && !(sameKey && state.tick === tick),
    reload,
  };
}
