import type { StorageLike } from "./tokens";

/**
 * The legacy e-commerce host's session (spec 01 §6-§7): its calls (`/api/ecommerce/...`) send a `token`
 * header the client keeps in a cookie, exchanged for the card platform's session by `POST /api/login/fcard`
 * (which sets the cookie) and exchanged again when it has expired. The cookie is one per browser while each
 * area has a session of its own, so the store remembers which session the cookie was made for (a digest of
 * it) and exchanges again when the page's session is another.
 */
export interface LegacySession {
  /** Whether a call goes to the legacy host. */
  covers(path: string): boolean;
  /** The legacy token of the current session: the cookie's, or a new one when there is none or `renew`. */
  token(renew: boolean): Promise<string | null>;
}

export const LEGACY_PREFIX = "/api/ecommerce/";
export const LEGACY_COOKIE = "token";
const MADE_FOR = "legacyTokenOf";

export interface LegacyDeps {
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  /** The card platform session of the page the user is on. */
  session: () => string | null;
  /** `document.cookie`. */
  cookies: () => string;
  storage: StorageLike;
}

/** A short digest (FNV-1a) of a session token: enough to tell two sessions apart without storing it again. */
function digest(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36);
}

export function cookieValue(cookies: string, name: string): string | null {
  for (const part of cookies.split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return v.join("=") || null;
  }
  return null;
}

export function createLegacySession(deps: LegacyDeps): LegacySession {
  let exchanging: Promise<string | null> | null = null;
  const exchange = async (session: string): Promise<string | null> => {
    try {
      const res = await deps.fetch("/api/login/fcard", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ sessionId: session }),
      });
      const body = (await res.json()) as { code?: number; data?: { token?: string } };
      if (body.code !== 1 || !body.data?.token) return null;
      deps.storage.setItem(MADE_FOR, digest(session));
      return body.data.token;
    } catch {
      return null;
    }
  };
  return {
    covers: (path) => path.startsWith(LEGACY_PREFIX),
    async token(renew) {
      const session = deps.session();
      if (!session) return null;
      const cookie = cookieValue(deps.cookies(), LEGACY_COOKIE);
      if (!renew && cookie && deps.storage.getItem(MADE_FOR) === digest(session)) return cookie;
      // Calls made together share one exchange.
      exchanging ??= exchange(session).finally(() => {
        exchanging = null;
      });
      return exchanging;
    },
  };
}
