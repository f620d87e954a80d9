import { describe, expect, it } from "vitest";
import sharp from "sharp";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";

const t = useTestApp();

type Merchant = Awaited<ReturnType<typeof registerMerchant>>;
/** A legacy call with the `token` header (as the legacy client sends it, from its cookie). */
const legacy = <T>(token: string, path: string, body: unknown = {}) =>
  t.call<T>("POST", `/api/ecommerce/${path}`, { headers: { token }, body });

async function fcard(sessionId: string) {
  return t.app.inject({ method: "POST", url: "/api/login/fcard", payload: { sessionId }, headers: { lang: "en" } });
}
/** Binds a WeChat mini-program to the merchant through the local platform's consent page; its app id. */
async function authoriseWechat(m: Merchant): Promise<string> {
  const U = "/api/card-user/miniProgram";
  const created = await t.call<{ id: string }>("PUT", `${U}/mpConfigs`, {
    token: m.token,
    body: {
      platform: "wechat",
      configCode: `legacy-${m.userId}`,
      name: "Legacy Mall",
      category: "Goods",
      description: "Physical goods",
      theme: 1,
      navMenus: [{ title: "Home", target: "/" }],
      bottomMenus: [{ title: "Mall", target: "/" }],
      customerService: "400-800-1234",
      domain: "mall.legacy.example",
      smsSignature: "Legacy",
      payOnPlatform: true,
      validityDays: 365,
      allowTopupAccountChange: true,
    },
  });
  expect(created.body.code).toBe(1);
  const id = created.body.data.id;
  const auth = await t.call<{ url: string }>("GET", `${U}/authUrl?configId=${id}&redirect=/sale/EquityApplet`, {
    token: m.token,
  });
  const preAuth = new URL(auth.body.data.url).searchParams.get("pre_auth_code") ?? "";
  const consent = await t.call<{ redirect: string; appId: string }>(
    "POST",
    `/api/mp-platform/wechat/preauth/${encodeURIComponent(preAuth)}/authorize`,
    { body: { nickName: "Legacy App" } },
  );
  const authCode = new URL(consent.body.data.redirect).searchParams.get("auth_code");
  const bound = await t.call<{ appId: string; authorized: boolean }>("PUT", `${U}/authCallback`, {
    token: m.token,
    body: { configId: Number(id), authCode },
  });
  expect(bound.body.data).toMatchObject({ appId: consent.body.data.appId, authorized: true });
  return consent.body.data.appId;
}

async function legacyToken(m: Merchant): Promise<string> {
  const res = await fcard(m.token);
  expect(res.statusCode).toBe(200);
  return res.json<{ data: { token: string } }>().data.token;
}

describe("the legacy session", () => {
  it("fcard exchanges the session for a token and its expiry (also as a cookie); the token opens the legacy calls; a refresh gives a new one", async () => {
    const m = await registerMerchant(t, { orgName: "Legacy Shop Co" });
    const res = await fcard(m.token);
    const body = res.json<{ code: number; data: { token: string; expires_in: number; expireAt: string } }>();
    expect(body.code).toBe(1);
    expect(body.data.token).toMatch(/^lg\./);
    expect(body.data.expires_in).toBe(7200);
    expect(String(res.headers["set-cookie"])).toContain(`token=${body.data.token}`);
    const info = await legacy<{ name: string }>(body.data.token, "shop/info");
    expect(info.body.data.name).toBe("Legacy Shop Co");
    // Refreshing with the legacy token itself works too.
    const again = (await fcard(body.data.token)).json<{ data: { token: string } }>();
    expect(again.data.token).not.toBe(body.data.token);
    expect((await legacy(again.data.token, "school/info")).body.code).toBe(1);
  });

  it("a bad or expired session gets no token; an expired token and a logged-out session open nothing", async () => {
    const bad = await fcard("not-a-session");
    expect(bad.statusCode).toBe(401);
    expect(bad.json<{ msg: string }>().msg).toBe("The session is invalid or has expired; please log in again");
    const tampered = await legacy("lg.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "shop/info");
    expect(tampered.status).toBe(401);
    const m = await registerMerchant(t);
    const token = await legacyToken(m);
    t.clock.advance(7201);
    expect((await legacy(token, "shop/info")).status).toBe(401);
    const fresh = await legacyToken(m);
    await t.call("PUT", "/api/card-user/logout", { token: m.token });
    expect((await legacy(fresh, "shop/info")).status).toBe(401);
  });

  it("validatetoken answers for the legacy token as for the session token: valid, expired, tampered, unknown", async () => {
    const validate = async (token: string) => {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/login/validatetoken",
        payload: { token },
        headers: { lang: "en" },
      });
      expect(res.statusCode).toBe(200);
      return res.json<{ code: number; data: { valid: boolean; expires_in: number; userId: string | null } }>();
    };
    const m = await registerMerchant(t);
    const token = await legacyToken(m);
    // Valid: the same shape as the session token's answer, with the legacy token's own (shorter) life.
    const session = await validate(m.token);
    const live = await validate(token);
    expect(live.code).toBe(1);
    expect(live.data).toEqual({ valid: true, expires_in: 7200, userId: m.userId });
    expect(Object.keys(live.data).sort()).toEqual(Object.keys(session.data).sort());
    expect(session.data.expires_in).toBeGreaterThan(7200);
    t.clock.advance(3600);
    expect((await validate(token)).data).toEqual({ valid: true, expires_in: 3600, userId: m.userId });
    // Tampered: one character of the sealed body changed.
    const body = token.slice(3);
    const flipped = body.slice(0, 20) + (body[20] === "A" ? "B" : "A") + body.slice(21);
    expect((await validate(`lg.${flipped}`)).data).toEqual({ valid: false, expires_in: 0, userId: null });
    // Unknown: a well-formed legacy token sealed under another key, and a token that is none.
    expect((await validate("lg.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")).data.valid).toBe(false);
    expect((await validate("not-a-token")).data).toEqual({ valid: false, expires_in: 0, userId: null });
    // Expired: the clock moves past the legacy token's end while the session lives on.
    t.clock.advance(3601);
    expect((await validate(token)).data).toEqual({ valid: false, expires_in: 0, userId: null });
    expect((await validate(m.token)).data.valid).toBe(true);
    // A logged-out session ends the legacy token too.
    const fresh = await legacyToken(m);
    expect((await validate(fresh)).data.valid).toBe(true);
    await t.call("PUT", "/api/card-user/logout", { token: m.token });
    expect((await validate(fresh)).data.valid).toBe(false);
  });

  it("the video library's legacy calls take the legacy token header too", async () => {
    const m = await registerMerchant(t);
    const token = await legacyToken(m);
    const page = await legacy<{ total: number }>(token, "videolibrary/pager", { page: 1, pagesize: 20 });
    expect(page.body.code).toBe(1);
    expect(page.body.data.total).toBe(0);
  });
});

describe("the shop's legacy calls", () => {
  it("shop/info and school/info are the shop's profile; teacher/v2/homepage its storefront; strangers see their own only", async () => {
    const m = await registerMerchant(t, { orgName: "Storefront Co" });
    const token = await legacyToken(m);
    const added = await legacy<{ id: string }>(token, "commodity/add", {
      name: "Desk lamp",
      skus: [{ specs: [], price: 12_900, stock: 4 }],
    });
    await legacy(token, "commodity/state/update", { id: added.body.data.id, onShelf: true });
    await legacy(token, "commodity/add", { name: "Draft lamp", skus: [{ specs: [], price: 100, stock: 1 }] });
    const info = await legacy<{ name: string; commodities: number; onShelf: number }>(token, "shop/info");
    expect(info.body.data).toMatchObject({ name: "Storefront Co", commodities: 2, onShelf: 1 });
    const home = await legacy<{ shop: { name: string }; commodities: { name: string }[] }>(
      token,
      "teacher/v2/homepage",
    );
    expect(home.body.data.commodities.map((c) => c.name)).toEqual(["Desk lamp"]);
    const other = await registerMerchant(t);
    const otherHome = await legacy<{ commodities: unknown[] }>(await legacyToken(other), "teacher/v2/homepage");
    expect(otherHome.body.data.commodities).toEqual([]);
  });

  it("getwxacodeunlimit asks the mini-program adapter (local WeChat) for the shop's app code; its refusals and bad input come back", async () => {
    const m = await registerMerchant(t);
    const token = await legacyToken(m);
    const code = (body: Record<string, unknown>) =>
      t.app.inject({
        method: "POST",
        url: "/api/ecommerce/weixin/minprogram/getwxacodeunlimit",
        headers: { token, lang: "en" },
        payload: body,
      });
    // No authorised mini-program yet.
    const none = await code({ scene: "goods=42", page: "pages/goods/detail" });
    expect(none.statusCode).toBe(409);
    expect(none.json<{ msg: string }>().msg).toBe("Please authorise the mini-program first");
    const appId = await authoriseWechat(m);
    // check_path (WeChat's default): the page must be in the released version; none is released: 41030.
    const unreleased = await code({ scene: "goods=42", page: "pages/goods/detail" });
    expect(unreleased.statusCode).toBe(409);
    expect(unreleased.json<{ msg: string }>().msg).toContain("41030");
    const trial = await code({ scene: "goods=42", page: "pages/goods/detail", env_version: "trial" });
    expect(trial.json<{ msg: string }>().msg).toContain("41030");
    // Unchecked, the platform draws the code: a PNG of the asked width, for the shop's app.
    const res = await code({ scene: "goods=42", page: "pages/goods/detail", width: 430, check_path: false });
    expect(res.statusCode).toBe(200);
    const data = res.json<{ data: { image: string; appId: string; scene: string; page: string } }>().data;
    expect(data).toMatchObject({ appId, scene: "goods=42", page: "pages/goods/detail" });
    expect(data.image).toMatch(/^data:image\/png;base64,/);
    const meta = await sharp(Buffer.from(data.image.split(",")[1] ?? "", "base64")).metadata();
    expect(meta.format).toBe("png");
    expect(meta.width).toBe(430);
    const wide = (await code({ scene: "a", check_path: false, width: 1280 })).json<{ data: { image: string } }>().data
      .image;
    expect((await sharp(Buffer.from(wide.split(",")[1] ?? "", "base64")).metadata()).width).toBe(1280);
    // A page with a leading slash is the platform's 41030, as on WeChat.
    expect((await code({ scene: "a", page: "/pages/index", check_path: false })).json<{ msg: string }>().msg).toContain(
      "41030",
    );
    // Bad input is refused before the platform: scene over 32 or outside WeChat's characters, width out of 280–1280.
    for (const body of [
      { scene: "x".repeat(33) },
      { scene: "中文" },
      { scene: "a", width: 279 },
      { scene: "a", width: 1281 },
      { scene: "a", env_version: "beta" },
    ]) {
      expect((await code(body)).statusCode).toBe(400);
    }
  });

  it("nclass/img/upload stores an image; not an image is refused", async () => {
    const m = await registerMerchant(t);
    const token = await legacyToken(m);
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#c33" } })
      .png()
      .toBuffer();
    const boundary = "----tessera-legacy";
    const form = (data: Buffer, name: string) =>
      Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        data,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
    const up = await t.app.inject({
      method: "POST",
      url: "/api/ecommerce/nclass/img/upload",
      headers: { token, "content-type": `multipart/form-data; boundary=${boundary}` },
      payload: form(png, "a.png"),
    });
    const body = up.json<{ code: number; data: { url: string; width: number } }>();
    expect(body.code).toBe(1);
    expect(body.data.width).toBe(40);
    const img = await t.app.inject({ method: "GET", url: body.data.url });
    expect(img.statusCode).toBe(200);
    const bad = await t.app.inject({
      method: "POST",
      url: "/api/ecommerce/nclass/img/upload",
      headers: { token, lang: "en", "content-type": `multipart/form-data; boundary=${boundary}` },
      payload: form(Buffer.from("not an image"), "a.png"),
    });
    expect(bad.statusCode).toBe(400);
  });

  it("the livecourse upload handshake: system user id, user data and an upload token the resumable upload accepts", async () => {
    const m = await registerMerchant(t);
    const token = await legacyToken(m);
    const id = await t.call<{ systemuserid: string }>("GET", "/api/ecommerce/livecourse/systemuserid", {
      headers: { token },
    });
    expect(id.body.data.systemuserid).toBe(m.userId);
    const data = await legacy<{ uploadUrl: string; partSize: number }>(token, "livecourse/userdata");
    expect(data.body.data).toMatchObject({ uploadUrl: "/api/media/uploads", partSize: 1_048_576 });
    const up = await legacy<{ token: string; expires_in: number }>(token, "livecourse/token");
    expect(up.body.data.expires_in).toBe(3600);
    const b64 = (s: string) => Buffer.from(s).toString("base64");
    const created = await t.app.inject({
      method: "POST",
      url: "/api/media/uploads",
      headers: {
        "tus-resumable": "1.0.0",
        "x-auth-token": up.body.data.token,
        "upload-length": "5000",
        "upload-metadata": `filename ${b64("class.mp4")},type ${b64("3")}`,
      },
    });
    expect(created.statusCode).toBe(201);
  });

  it("no token or a token that is none is refused", async () => {
    expect((await t.call("POST", "/api/ecommerce/shop/info", { body: {} })).status).toBe(401);
    expect((await legacy("garbage", "shop/info")).status).toBe(401);
  });
});
