import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { registerMerchant, startTestApp, type TestApp } from "../../../test/harness";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

type Merchant = Awaited<ReturnType<typeof registerMerchant>>;
/** A legacy call with the `token` header (as the legacy client sends it, from its cookie). */
const legacy = <T>(token: string, path: string, body: unknown = {}) => t.call<T>("POST", `/api/ecommerce/${path}`, { headers: { token }, body });

async function fcard(sessionId: string) {
  return t.app.inject({ method: "POST", url: "/api/login/fcard", payload: { sessionId }, headers: { lang: "en" } });
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
    const added = await legacy<{ id: string }>(token, "commodity/add", { name: "Desk lamp", skus: [{ specs: [], price: 12_900, stock: 4 }] });
    await legacy(token, "commodity/state/update", { id: added.body.data.id, onShelf: true });
    await legacy(token, "commodity/add", { name: "Draft lamp", skus: [{ specs: [], price: 100, stock: 1 }] });
    const info = await legacy<{ name: string; commodities: number; onShelf: number }>(token, "shop/info");
    expect(info.body.data).toMatchObject({ name: "Storefront Co", commodities: 2, onShelf: 1 });
    const home = await legacy<{ shop: { name: string }; commodities: { name: string }[] }>(token, "teacher/v2/homepage");
    expect(home.body.data.commodities.map((c) => c.name)).toEqual(["Desk lamp"]);
    const other = await registerMerchant(t);
    const otherHome = await legacy<{ commodities: unknown[] }>(await legacyToken(other), "teacher/v2/homepage");
    expect(otherHome.body.data.commodities).toEqual([]);
  });

  it("getwxacodeunlimit answers a real QR image; a bad scene is refused", async () => {
    const m = await registerMerchant(t);
    const token = await legacyToken(m);
    const res = await legacy<{ image: string; url: string }>(token, "weixin/minprogram/getwxacodeunlimit", { scene: "goods=42", page: "pages/goods/detail", width: 430 });
    expect(res.body.data.image).toMatch(/^data:image\/png;base64,/);
    const png = Buffer.from(res.body.data.image.split(",")[1] ?? "", "base64");
    const meta = await sharp(png).metadata();
    expect(meta.format).toBe("png");
    expect(meta.width).toBe(430);
    expect(res.body.data.url).toContain("scene=goods%3D42");
    expect((await legacy(token, "weixin/minprogram/getwxacodeunlimit", { scene: "x".repeat(33) })).status).toBe(400);
  });

  it("nclass/img/upload stores an image; not an image is refused", async () => {
    const m = await registerMerchant(t);
    const token = await legacyToken(m);
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#c33" } }).png().toBuffer();
    const boundary = "----tessera-legacy";
    const form = (data: Buffer, name: string) =>
      Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`), data, Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const up = await t.app.inject({ method: "POST", url: "/api/ecommerce/nclass/img/upload", headers: { token, "content-type": `multipart/form-data; boundary=${boundary}` }, payload: form(png, "a.png") });
    const body = up.json<{ code: number; data: { url: string; width: number } }>();
    expect(body.code).toBe(1);
    expect(body.data.width).toBe(40);
    const img = await t.app.inject({ method: "GET", url: body.data.url });
    expect(img.statusCode).toBe(200);
    const bad = await t.app.inject({ method: "POST", url: "/api/ecommerce/nclass/img/upload", headers: { token, lang: "en", "content-type": `multipart/form-data; boundary=${boundary}` }, payload: form(Buffer.from("not an image"), "a.png") });
    expect(bad.statusCode).toBe(400);
  });

  it("the livecourse upload handshake: system user id, user data and an upload token the resumable upload accepts", async () => {
    const m = await registerMerchant(t);
    const token = await legacyToken(m);
    const id = await t.call<{ systemuserid: string }>("GET", "/api/ecommerce/livecourse/systemuserid", { headers: { token } });
    expect(id.body.data.systemuserid).toBe(m.userId);
    const data = await legacy<{ uploadUrl: string; partSize: number }>(token, "livecourse/userdata");
    expect(data.body.data).toMatchObject({ uploadUrl: "/api/media/uploads", partSize: 1_048_576 });
    const up = await legacy<{ token: string; expires_in: number }>(token, "livecourse/token");
    expect(up.body.data.expires_in).toBe(3600);
    const b64 = (s: string) => Buffer.from(s).toString("base64");
    const created = await t.app.inject({
      method: "POST",
      url: "/api/media/uploads",
      headers: { "tus-resumable": "1.0.0", "x-auth-token": up.body.data.token, "upload-length": "5000", "upload-metadata": `filename ${b64("class.mp4")},type ${b64("3")}` },
    });
    expect(created.statusCode).toBe(201);
  });

  it("no token or a token that is none is refused", async () => {
    expect((await t.call("POST", "/api/ecommerce/shop/info", { body: {} })).status).toBe(401);
    expect((await legacy("garbage", "shop/info")).status).toBe(401);
  });
});
