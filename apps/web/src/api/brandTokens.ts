import type { BrandTokenReply } from "@tessera/contracts";

/**
 * A service provider's brand tokens (spec 01 §6): one per brand, kept in sessionStorage (this tab
 * only, apart from the provider's own session in localStorage) and sent only by the brand's pages,
 * only on the calls a brand token serves. A token the server refuses is marked ended, so the page
 * can say so instead of logging the provider out.
 */
export interface BrandGrant {
  branderId: string;
  name: string;
  token: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

export type BrandGrantState = { kind: "active"; grant: BrandGrant } | { kind: "ended" } | { kind: "none" };

/** The public page of a brand's real-name verification: `/RealNamePage?sellerBrand=<id>`. */
export const BRAND_REAL_NAME_PAGE = "/RealNamePage";

/**
 * The pages a provider works on inside a brand (spec 01 §6), each with `?sellerBrand=<id>`: the brand's
 * real-name verification, its face value and discount cards, its brand authorisations.
 */
export const BRAND_CONTEXT_PAGES = [
  "/RealNamePage",
  "/providers/FaceValueCardP",
  "/providers/DiscountCardP",
  "/providers/BrandAuthorizationP",
  "/providers/brandShopCode",
  "/providers/paymentApplication",
] as const;

/** Calls a brand token serves on those pages (the server's brand-context menus). */
const BRAND_CALLS = [
  /^\/api\/card-brander\/realNameInfo$/,
  /^\/api\/card-user\/realNameAuths(\/|$)/,
  /^\/api\/card-brander\/cardProducts$/,
  /^\/api\/card-user\/brandAuth(\/|$)/,
  // Store shop codes (providers/brandShopCode) and aggregated onboarding (providers/paymentApplication).
  /^\/api\/card-brander\/(branderStores|qrCodes)(\/|$)/,
  /^\/api\/card-brander\/(paymentApplyRecords|wechat\/industries)(\/|$)/,
];

const KEY_PREFIX = "brandToken.";
const listeners = new Set<() => void>();
const notify = () => {
  for (const l of listeners) l();
};

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

export function subscribeBrandGrants(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The raw stored value, for useSyncExternalStore (a string compares by value). */
export function brandGrantSnapshot(branderId: string): string | null {
  return storage()?.getItem(KEY_PREFIX + branderId) ?? null;
}

export function parseBrandGrant(raw: string | null, now = Date.now()): BrandGrantState {
  if (!raw) return { kind: "none" };
  try {
    const value = JSON.parse(raw) as Partial<BrandGrant> & { ended?: boolean };
    if (
      value.ended ||
      typeof value.token !== "string" ||
      typeof value.expiresAt !== "number" ||
      value.expiresAt <= now
    ) {
      return { kind: "ended" };
    }
    return {
      kind: "active",
      grant: {
        branderId: String(value.branderId),
        name: String(value.name ?? ""),
        token: value.token,
        expiresAt: value.expiresAt,
      },
    };
  } catch {
    return { kind: "none" };
  }
}

export function saveBrandGrant(reply: BrandTokenReply, name: string, now = Date.now()): BrandGrant {
  const grant: BrandGrant = {
    branderId: reply.branderId,
    name,
    token: reply.token,
    expiresAt: now + reply.expires_in * 1000,
  };
  storage()?.setItem(KEY_PREFIX + grant.branderId, JSON.stringify(grant));
  notify();
  return grant;
}

/** Marks the brand's token ended (refused by the server): the page offers to open the brand again. */
export function endBrandGrant(branderId: string): void {
  storage()?.setItem(KEY_PREFIX + branderId, JSON.stringify({ ended: true }));
  notify();
}

/** The provider leaves the brand: its token is forgotten in this tab. */
export function dropBrandGrant(branderId: string): void {
  storage()?.removeItem(KEY_PREFIX + branderId);
  notify();
}

/** The brand whose context a location is in, if it is a brand page. */
export function brandOfLocation(location: { pathname: string; search: string }): string | null {
  if (!(BRAND_CONTEXT_PAGES as readonly string[]).includes(location.pathname)) return null;
  const id = new URLSearchParams(location.search).get("sellerBrand");
  return id && /^\d{1,18}$/.test(id) ? id : null;
}

export function isBrandCall(path: string): boolean {
  const bare = path.split("?")[0] ?? path;
  return BRAND_CALLS.some((re) => re.test(bare));
}

/**
 * The token a call on this location must carry instead of the session's, or null when the session's
 * applies. On a brand page a brand call never falls back to the provider's own token: without a
 * live brand token it goes without one (and the server refuses it).
 */
export function brandTokenFor(
  location: { pathname: string; search: string },
  path: string,
): { branderId: string; token: string | null } | null {
  const branderId = brandOfLocation(location);
  if (!branderId || !isBrandCall(path)) return null;
  const state = parseBrandGrant(brandGrantSnapshot(branderId));
  return { branderId, token: state.kind === "active" ? state.grant.token : null };
}
