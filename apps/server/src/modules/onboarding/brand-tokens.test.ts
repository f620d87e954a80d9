import { beforeAll, describe, expect, it } from "vitest";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { registerOperator } from "../../../test/operators";
import { BRAND_TOKEN_TTL_SECONDS } from "./brand-tokens";
import { submitRealName, upload, pngImage } from "../../../test/kit/onboarding-fixtures";

const t = useTestApp();
let ops: { token: string };
beforeAll(async () => {
  ops = await registerOperator(t);
});

type TokenReply = { token: string; expires_in: number; branderId: string; menus: string[] };

/** A provider, a brand bound to it, and the binding id. */
async function boundPair() {
  const provider = await registerMerchant(t, { orgName: "Provider Co" });
  await t.call("POST", `/api/ops/merchants/${provider.merchantId}/providerRole`, {
    token: ops.token,
    body: { grant: true },
  });
  const brand = await registerMerchant(t, { orgName: "Brand Co" });
  const bound = await t.call<{ id: string }>("POST", "/api/card-servicer/brander/service", {
    token: brand.token,
    body: { providerId: provider.merchantId, kind: "brand" },
  });
  return { provider, brand, bindingId: bound.body.data.id };
}

async function exchange(providerToken: string, bindingId: string) {
  return t.call<TokenReply>("POST", `/api/card-servicer/brander/${bindingId}/token`, { token: providerToken });
}

describe("brand token exchange", () => {
  it("acts as the brand on the brand-context pages only, attributed to the provider", async () => {
    const { provider, brand, bindingId } = await boundPair();
    const res = await exchange(provider.token, bindingId);
    expect(res.body.data).toMatchObject({ branderId: brand.merchantId, expires_in: BRAND_TOKEN_TTL_SECONDS });
    const bt = res.body.data.token;

    // Real-name of the brand (RealNamePage?sellerBrand=): allowed, and it is the brand's.
    const info = await t.call<{ merchantId: string }>("GET", "/api/card-brander/realNameInfo", { token: bt });
    expect(info.body.data.merchantId).toBe(brand.merchantId);
    const submitted = await submitRealName(t, bt);
    expect(submitted.body.code).toBe(1);
    const own = await t.call<{ latest: { id: string } | null }>("GET", "/api/card-brander/realNameInfo", {
      token: brand.token,
    });
    expect(own.body.data.latest).not.toBeNull();
    const row = await t.ctx.database.db
      .selectFrom("real_name_applications")
      .select("submitted_by")
      .where("merchant_id", "=", Number(brand.merchantId))
      .executeTakeFirst();
    expect(row?.submitted_by).toBe(Number(provider.userId));

    // Outside the brand context: refused.
    expect((await t.call("GET", "/api/card-brander/brander/profile", { token: bt })).status).toBe(403);
    expect((await t.call("GET", "/api/card-brander/brander/api", { token: bt })).status).toBe(403);
    expect((await t.call("GET", "/api/card-brander/brander/passport/sub/search", { token: bt })).status).toBe(403);
    expect((await t.call("POST", `/api/card-servicer/brander/${bindingId}/token`, { token: bt })).status).toBe(403);
    // Routes that name no page (account calls, money, orders) are out of a brand token's reach too.
    for (const url of [
      "/api/card-user/userInfo",
      "/api/card-user/agreements",
      "/api/card-brander/withdraws",
      "/api/card-user/orders",
    ]) {
      expect((await t.call("GET", url, { token: bt })).status, url).toBe(403);
    }
    // Another brand's documents stay out of reach.
    const other = await registerMerchant(t);
    const doc = await upload(t, other.token, "license", await pngImage());
    expect((await t.call("GET", `/api/card-user/realNameAuths/images/${doc}`, { token: bt })).status).toBe(404);
  });

  it("only for a brand the provider serves", async () => {
    const { provider, bindingId } = await boundPair();
    const stranger = await boundPair();
    expect((await exchange(provider.token, stranger.bindingId)).status).toBe(404);
    // A merchant that is not a provider cannot exchange at all.
    expect((await exchange(stranger.brand.token, bindingId)).status).toBe(403);
  });

  it("dies when the brand revokes, unbinds, the provider logs out, or it expires", async () => {
    const { provider, brand, bindingId } = await boundPair();
    const ok = async (token: string) => (await t.call("GET", "/api/card-brander/realNameInfo", { token })).status;

    const a = (await exchange(provider.token, bindingId)).body.data.token;
    expect(await ok(a)).toBe(200);
    const revoked = await t.call<{ revoked: number }>("POST", "/api/card-servicer/brander/service/revokeTokens", {
      token: brand.token,
    });
    expect(revoked.body.data.revoked).toBe(1);
    expect(await ok(a)).toBe(401);

    const b = (await exchange(provider.token, bindingId)).body.data.token;
    t.clock.advance(BRAND_TOKEN_TTL_SECONDS + 1);
    expect(await ok(b)).toBe(401);

    const c = (await exchange(provider.token, bindingId)).body.data.token;
    await t.call("DELETE", `/api/card-servicer/brander/${bindingId}`, { token: brand.token });
    expect(await ok(c)).toBe(401);
    expect((await exchange(provider.token, bindingId)).status).toBe(404);

    const again = await t.call<{ id: string }>("POST", "/api/card-servicer/brander/service", {
      token: brand.token,
      body: { providerId: provider.merchantId, kind: "brand" },
    });
    const d = (await exchange(provider.token, again.body.data.id)).body.data.token;
    expect(await ok(d)).toBe(200);
    await t.call("PUT", "/api/card-user/logout", { token: provider.token });
    expect(await ok(d)).toBe(401);
  });
});
