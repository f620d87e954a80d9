import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  brandGrantSnapshot,
  brandOfLocation,
  brandTokenFor,
  dropBrandGrant,
  endBrandGrant,
  isBrandCall,
  parseBrandGrant,
  saveBrandGrant,
  subscribeBrandGrants,
} from "./brandTokens";
import { createHttpClient, type ScopedToken } from "./client";
import { createLoadingTracker } from "./loading";

/** A sessionStorage stand-in (the tests run without a DOM). */
function memoryStorage(): Pick<Storage, "getItem" | "setItem" | "removeItem"> {
  const data = new Map<string, string>();
  return {
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
  };
}

const REPLY = { token: "bt.abc", expires_in: 7200, branderId: "10000002", menus: ["business/AuthenticationB"] };
const brandPage = { pathname: "/RealNamePage", search: "?sellerBrand=10000002" };

beforeEach(() => {
  vi.stubGlobal("window", { sessionStorage: memoryStorage() });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe("brand tokens (spec 01 §6)", () => {
  it("a brand page is /RealNamePage or a provider's brand-context page with a numeric sellerBrand", () => {
    expect(brandOfLocation(brandPage)).toBe("10000002");
    for (const pathname of [
      "/providers/FaceValueCardP",
      "/providers/DiscountCardP",
      "/providers/BrandAuthorizationP",
    ]) {
      expect(brandOfLocation({ pathname, search: "?sellerBrand=10000002" })).toBe("10000002");
      expect(brandOfLocation({ pathname, search: "" })).toBeNull();
    }
    expect(brandOfLocation({ pathname: "/providers/SuppliedProductsP", search: "?sellerBrand=10000002" })).toBeNull();
    expect(brandOfLocation({ pathname: "/RealNamePage", search: "" })).toBeNull();
    expect(brandOfLocation({ pathname: "/RealNamePage", search: "?sellerBrand=abc" })).toBeNull();
    expect(brandOfLocation({ pathname: "/providers/BrandsList", search: "?sellerBrand=10000002" })).toBeNull();
  });

  it("only the calls of the brand-context pages carry the brand token", () => {
    expect(isBrandCall("/api/card-brander/cardProducts?kind=faceValue")).toBe(true);
    expect(isBrandCall("/api/card-user/brandAuth/list")).toBe(true);
    expect(isBrandCall("/api/card-user/brandAuth/12")).toBe(true);
    expect(isBrandCall("/api/card-brander/product/search")).toBe(false);
    expect(isBrandCall("/api/card-user/brandAuthx")).toBe(false);
    expect(isBrandCall("/api/card-brander/realNameInfo")).toBe(true);
    expect(isBrandCall("/api/card-user/realNameAuths/images/12")).toBe(true);
    expect(isBrandCall("/api/card-user/realNameAuths")).toBe(true);
    expect(isBrandCall("/api/card-user/userInfo")).toBe(false);
    expect(isBrandCall("/api/card-user/agreements/templates")).toBe(false);
    expect(isBrandCall("/api/card-brander/brander/profile")).toBe(false);
  });

  it("saves per brand, expires, ends on refusal and is dropped on leaving", () => {
    const seen: number[] = [];
    const unsubscribe = subscribeBrandGrants(() => seen.push(1));
    const now = Date.parse("2026-11-23T10:00:00Z");
    const grant = saveBrandGrant(REPLY, "Brand Co", now);
    expect(grant).toEqual({ branderId: "10000002", name: "Brand Co", token: "bt.abc", expiresAt: now + 7_200_000 });
    expect(parseBrandGrant(brandGrantSnapshot("10000002"), now)).toEqual({ kind: "active", grant });
    expect(parseBrandGrant(brandGrantSnapshot("10000002"), now + 7_200_000)).toEqual({ kind: "ended" });
    expect(parseBrandGrant(brandGrantSnapshot("10000003"), now)).toEqual({ kind: "none" });

    endBrandGrant("10000002");
    expect(parseBrandGrant(brandGrantSnapshot("10000002"), now)).toEqual({ kind: "ended" });
    dropBrandGrant("10000002");
    expect(parseBrandGrant(brandGrantSnapshot("10000002"), now)).toEqual({ kind: "none" });
    expect(seen).toHaveLength(3);
    unsubscribe();
  });

  it("on a brand page a brand call never falls back to the session's token", () => {
    expect(brandTokenFor(brandPage, "/api/card-brander/realNameInfo")).toEqual({ branderId: "10000002", token: null });
    saveBrandGrant(REPLY, "Brand Co");
    expect(brandTokenFor(brandPage, "/api/card-brander/realNameInfo")).toEqual({
      branderId: "10000002",
      token: "bt.abc",
    });
    expect(brandTokenFor(brandPage, "/api/card-user/userInfo")).toBeNull();
    expect(
      brandTokenFor({ pathname: "/providers/AuthenticationP", search: "" }, "/api/card-brander/realNameInfo"),
    ).toBeNull();
  });
});

describe("HTTP client with a scoped token", () => {
  function setup(status: number, scoped: (path: string) => ScopedToken | null) {
    const headers: Record<string, string>[] = [];
    const toasts: string[] = [];
    let sessionEnded = 0;
    const client = createHttpClient({
      fetch: (_url, init) => {
        headers.push(init.headers as Record<string, string>);
        return Promise.resolve(
          new Response(JSON.stringify({ code: status === 200 ? 1 : 401, data: null, msg: "Login state expired" }), {
            status,
          }),
        );
      },
      getLang: () => "en",
      getToken: () => "session",
      text: (key) => key,
      toastError: (msg) => toasts.push(msg),
      onUnauthorized: () => {
        sessionEnded += 1;
      },
      mayToastLoginExpired: () => true,
      loading: createLoadingTracker(0),
      scopedToken: scoped,
    });
    return { client, headers, toasts, sessionEnded: () => sessionEnded };
  }

  it("sends the scoped token on its calls and the session's on the others", async () => {
    const { client, headers } = setup(200, (path) =>
      path.startsWith("/brand") ? { token: "bt.x", onUnauthorized: () => undefined } : null,
    );
    await client.get("/brand/info");
    await client.get("/own/info");
    expect(headers.map((h) => h["x-auth-token"])).toEqual(["bt.x", "session"]);
  });

  it("sends no token at all when the scope has none", async () => {
    const { client, headers } = setup(200, () => ({ token: null, onUnauthorized: () => undefined }));
    await client.get("/brand/info");
    expect(headers[0]?.["x-auth-token"]).toBeUndefined();
  });

  it("a 401 on a scoped call ends only the scoped token: no logout, no toast", async () => {
    let ended = 0;
    const { client, toasts, sessionEnded } = setup(401, () => ({ token: "bt.x", onUnauthorized: () => (ended += 1) }));
    const result = await client.get("/brand/info");
    expect(result).toMatchObject({ ok: false, status: 401 });
    expect(ended).toBe(1);
    expect(sessionEnded()).toBe(0);
    expect(toasts).toEqual([]);
  });
});
