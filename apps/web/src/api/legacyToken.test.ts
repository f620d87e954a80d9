import { describe, expect, it } from "vitest";
import { createHttpClient } from "./client";
import { cookieValue, createLegacySession } from "./legacyToken";
import { createLoadingTracker } from "./loading";

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/**
 * A browser of one origin: a cookie jar the fcard reply writes (as its Set-Cookie does), localStorage, and a
 * server whose legacy tokens are "lg.<session>.<n>" and which refuses tokens in `expired`.
 */
function browser(session: { current: string | null }) {
  let jar = "";
  let issued = 0;
  const expired = new Set<string>();
  const calls: { url: string; headers: Record<string, string> }[] = [];
  const store = new Map<string, string>();
  const fetch = (url: string, init: RequestInit): Promise<Response> => {
    const headers = (init.headers ?? {}) as Record<string, string>;
    calls.push({ url, headers });
    if (url === "/api/login/fcard") {
      const { sessionId } = JSON.parse(init.body as string) as { sessionId: string };
      if (sessionId === "dead") return Promise.resolve(json(401, { code: 401, data: null, msg: "expired" }));
      const token = `lg.${sessionId}.${++issued}`;
      jar = `other=1; token=${token}`;
      return Promise.resolve(json(200, { code: 1, data: { token, expires_in: 7200 }, msg: "" }));
    }
    const token = headers.token;
    if (!token || expired.has(token)) return Promise.resolve(json(401, { code: 401, data: null, msg: "no" }));
    return Promise.resolve(json(200, { code: 1, data: { by: token }, msg: "" }));
  };
  const legacy = createLegacySession({
    fetch,
    session: () => session.current,
    cookies: () => jar,
    storage: {
      getItem: (k) => store.get(k) ?? null,
      setItem: (k, v) => void store.set(k, v),
      removeItem: (k) => void store.delete(k),
    },
  });
  let unauthorized = 0;
  const client = createHttpClient({
    fetch,
    getLang: () => "cn",
    getToken: () => session.current,
    text: () => "x",
    toastError: () => undefined,
    onUnauthorized: () => void unauthorized++,
    mayToastLoginExpired: () => false,
    loading: createLoadingTracker(0),
    legacy,
  });
  return { client, calls, expire: (t: string) => expired.add(t), unauthorized: () => unauthorized };
}

describe("the legacy e-commerce token (spec 01 §6-§7)", () => {
  it("reads a cookie by name", () => {
    expect(cookieValue("a=1; token=lg.x=y; b=2", "token")).toBe("lg.x=y");
    expect(cookieValue("a=1", "token")).toBeNull();
  });

  it("legacy calls send the cookie's token in the token header, exchanged once for the session", async () => {
    const session = { current: "s1" };
    const b = browser(session);
    const [one, two] = await Promise.all([
      b.client.post<{ by: string }>("/api/ecommerce/shop/info"),
      b.client.post<{ by: string }>("/api/ecommerce/commodity/pager"),
    ]);
    expect([one?.ok && one.data.by, two?.ok && two.data.by]).toEqual(["lg.s1.1", "lg.s1.1"]);
    await b.client.post("/api/ecommerce/shop/info");
    expect(b.calls.filter((c) => c.url === "/api/login/fcard")).toHaveLength(1);
    const legacyCalls = b.calls.filter((c) => c.url.startsWith("/api/ecommerce/"));
    expect(legacyCalls.every((c) => c.headers.token === "lg.s1.1" && !c.headers["x-auth-token"])).toBe(true);
    // The card platform's calls keep the session token.
    await b.client.get("/api/card-user/userInfo");
    expect(b.calls.at(-1)?.headers["x-auth-token"]).toBe("s1");
  });

  it("another session (the other area, a new login) gets its own token; an expired one is exchanged again once", async () => {
    const session = { current: "s1" };
    const b = browser(session);
    await b.client.post("/api/ecommerce/shop/info");
    session.current = "s2";
    const other = await b.client.post<{ by: string }>("/api/ecommerce/shop/info");
    expect(other?.ok && other.data.by).toBe("lg.s2.2");
    b.expire("lg.s2.2");
    const renewed = await b.client.post<{ by: string }>("/api/ecommerce/shop/info");
    expect(renewed?.ok && renewed.data.by).toBe("lg.s2.3");
    expect(b.unauthorized()).toBe(0);
  });

  it("a session the server no longer knows ends as any 401 does", async () => {
    const b = browser({ current: "dead" });
    const r = await b.client.post("/api/ecommerce/shop/info");
    expect(r).toMatchObject({ ok: false, status: 401 });
    expect(b.unauthorized()).toBe(1);
  });
});
