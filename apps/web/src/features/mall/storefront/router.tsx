import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from "react";

/**
 * The storefront's router: six paths under /mall/:appId in the History API. react-router with its
 * data-router is about 30 kB gzip, a quarter of the storefront's budget, for what is here a switch on
 * the path segments and a click handler.
 */
export type MallRoute =
  | { page: "home" }
  | { page: "login" }
  | { page: "item"; kind: string; id: string }
  | { page: "cart" }
  | { page: "orders" }
  | { page: "order"; id: string }
  | { page: "notFound" };

export interface MallLocation {
  appId: string;
  route: MallRoute;
  pathname: string;
  search: URLSearchParams;
}

/** Reads `/mall/:appId/...` (pure, tested). */
export function matchMallPath(pathname: string): { appId: string; route: MallRoute } {
  const parts = pathname
    .split("/")
    .filter(Boolean)
    .map((p) => decodeURIComponent(p));
  const appId = parts[0] === "mall" ? (parts[1] ?? "") : "";
  const rest = parts.slice(2);
  const route: MallRoute =
    rest.length === 0
      ? { page: "home" }
      : rest.length === 1 && rest[0] === "login"
        ? { page: "login" }
        : rest.length === 1 && rest[0] === "cart"
          ? { page: "cart" }
          : rest.length === 1 && rest[0] === "orders"
            ? { page: "orders" }
            : rest.length === 2 && rest[0] === "orders"
              ? { page: "order", id: rest[1]! }
              : rest.length === 3 && rest[0] === "item"
                ? { page: "item", kind: rest[1]!, id: rest[2]! }
                : { page: "notFound" };
  return { appId, route };
}

const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());
const subscribe = (l: () => void) => {
  // The back and forward buttons, listened to while a page is mounted (the module itself stays pure).
  if (listeners.size === 0) window.addEventListener("popstate", emit);
  listeners.add(l);
  return () => {
    listeners.delete(l);
    if (listeners.size === 0) window.removeEventListener("popstate", emit);
  };
};
const href = () => window.location.pathname + window.location.search;

export function useMallLocation(): MallLocation {
  const current = useSyncExternalStore(subscribe, href);
  const url = new URL(current, window.location.origin);
  return { ...matchMallPath(url.pathname), pathname: url.pathname, search: url.searchParams };
}

/** Goes to a storefront address in this page; anything outside /mall/ is a full page load. */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (!to.startsWith("/mall/")) {
    window.location.assign(to);
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
