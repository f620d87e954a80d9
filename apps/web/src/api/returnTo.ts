import { versionOfPath } from "./area";

/**
 * Where a user was when the session ended (a 401, or opening a page without a session), so that the
 * next login leads back there instead of to the system chooser (issue 25 item 7). Kept for this tab
 * only (sessionStorage) and only for the login that belongs to the page: a merchant login never leads
 * into the operator console, the domestic login never into an international page.
 */
const KEY = "tessera.returnTo";

export type LoginKind = "domestic" | "international" | "ops";

function loginKindOf(path: string): LoginKind {
  if (path === "/ops" || path.startsWith("/ops/")) return "ops";
  return versionOfPath(path);
}

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

/** Remembers a page to come back to (a login, chooser or public page is not worth returning to). */
export function rememberReturnTo(pathWithSearch: string): void {
  const path = pathWithSearch.split("?")[0] ?? "";
  if (
    /\/(login|INlogin|SelectUser)$/.test(path) ||
    !/^\/(international\/)?(sale|business|providers|ops)\//.test(path)
  ) {
    return;
  }
  storage()?.setItem(KEY, pathWithSearch);
}

/** The remembered page for this login, once (it is forgotten when read). */
export function takeReturnTo(kind: LoginKind): string | null {
  const s = storage();
  const path = s?.getItem(KEY) ?? null;
  s?.removeItem(KEY);
  if (!path || loginKindOf(path) !== kind) return null;
  return path;
}
