import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from "react";
import { bagPageOf } from "./paths";

/**
 * The light card bag's navigation in the History API (paths.ts names its pages): a link to one of them
 * stays in this page, a link elsewhere (the app's card bag pages, the storefront) is a page load.
 */
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());
const subscribe = (l: () => void) => {
  if (listeners.size === 0) window.addEventListener("popstate", emit);
  listeners.add(l);
  return () => {
    listeners.delete(l);
    if (listeners.size === 0) window.removeEventListener("popstate", emit);
  };
};
const href = () => window.location.pathname + window.location.search;

export function useBagLocation(): { pathname: string; search: URLSearchParams } {
  const current = useSyncExternalStore(subscribe, href);
  const url = new URL(current, window.location.origin);
  return { pathname: url.pathname, search: url.searchParams };
}

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  const url = new URL(to, window.location.origin);
  if (!bagPageOf(url.pathname)) {
    if (options.replace) window.location.replace(to);
    else window.location.assign(to);
    return;
  }
  window.history[options.replace ? "replaceState" : "pushState"](null, "", to);
  window.scrollTo(0, 0);
  emit();
}

export function Link({ to, onClick, ...rest }: { to: string } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href">) {
  const click = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    // A new tab, a modified click or another button keeps the browser's own behaviour.
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={click} {...rest} />;
}
