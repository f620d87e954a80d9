import { describe, expect, it } from "vitest";
import { registerMerchant } from "../../test/harness";
import { useTestApp } from "../../test/kit/use-test-app";

const t = useTestApp();

interface BrandInfo {
  branderId: string;
  branderImToken: string;
  imUser: string;
  imToken: string;
  appKey: string;
}

/** The back-office link: merchant registration creates the IM users; userInfo hands out chat tokens. */
describe("brand chat identities", () => {
  it("registration creates u<userId> and b<merchantId>; userInfo carries their tokens for the IM service", async () => {
    const m = await registerMerchant(t, { orgName: "Blue Brand" });
    const db = t.ctx.database.db;
    const rows = await db
      .selectFrom("im_users")
      .select(["username", "nickname", "password_hash"])
      .where("username", "in", [`u${m.userId}`, `b${m.merchantId}`])
      .orderBy("username")
      .execute();
    expect(rows).toEqual([
      { username: `b${m.merchantId}`, nickname: "Blue Brand", password_hash: null },
      { username: `u${m.userId}`, nickname: "Blue Brand", password_hash: null },
    ]);
    // Chat counterparts read the company's name as the user-info nickname of both identities.
    const nicknames = await t.app.im.services.accounts.getUserInfo([`u${m.userId}`, `b${m.merchantId}`], ["nickname"]);
    expect(nicknames).toEqual({
      [`u${m.userId}`]: { nickname: "Blue Brand" },
      [`b${m.merchantId}`]: { nickname: "Blue Brand" },
    });

    const info = await t.call<{ brandInfo: BrandInfo }>("GET", "/api/card-user/userInfo", { token: m.token });
    const brand = info.body.data.brandInfo;
    expect(brand).toMatchObject({
      branderId: m.merchantId,
      imUser: `u${m.userId}`,
      appKey: `${t.config.im.org}#${t.config.im.app}`,
    });

    const base = `/${t.config.im.org}/${t.config.im.app}`;
    const expires = await t.app.inject({
      method: "GET",
      url: `${base}/sdk/users/b${m.merchantId}/token/expires`,
      headers: { authorization: `Bearer ${brand.branderImToken}` },
    });
    expect(expires.statusCode).toBe(200);
    expect(expires.json<{ expire_timestamp: number }>().expire_timestamp).toBe(
      t.clock.now().getTime() + t.config.im.tokenTtlSeconds * 1000,
    );

    // The staff member writes to the brand's chat identity with its own token, and the brand reads it.
    const sent = await t.app.inject({
      method: "POST",
      url: `${base}/messages/users`,
      headers: { authorization: `Bearer ${brand.imToken}` },
      payload: { to: [`b${m.merchantId}`], type: "txt", body: { msg: "order 42?" } },
    });
    expect(sent.statusCode).toBe(200);
    const list = await t.app.inject({
      method: "GET",
      url: `${base}/sdk/user/b${m.merchantId}/user_channels/list?limit=20`,
      headers: { authorization: `Bearer ${brand.branderImToken}` },
    });
    expect(
      list.json<{ data: { channel_infos: { session_to: string; unread_num: number }[] } }>().data.channel_infos,
    ).toEqual([expect.objectContaining({ session_to: `u${m.userId}`, unread_num: 1 })]);
    // Each identity acts only as itself.
    const wrong = await t.app.inject({
      method: "GET",
      url: `${base}/users/b${m.merchantId}`,
      headers: { authorization: `Bearer ${brand.imToken}` },
    });
    expect(wrong.statusCode).toBe(403);
  });

  it("accounts made before the IM users existed get them on userInfo", async () => {
    const m = await registerMerchant(t);
    await t.ctx.database.db
      .deleteFrom("im_users")
      .where("username", "in", [`u${m.userId}`, `b${m.merchantId}`])
      .execute();
    const info = await t.call<{ brandInfo: BrandInfo }>("GET", "/api/card-user/userInfo", { token: m.token });
    expect(info.body.data.brandInfo.branderId).toBe(m.merchantId);
    const count = await t.ctx.database.db
      .selectFrom("im_users")
      .select("username")
      .where("username", "in", [`u${m.userId}`, `b${m.merchantId}`])
      .execute();
    expect(count).toHaveLength(2);
  });
});
