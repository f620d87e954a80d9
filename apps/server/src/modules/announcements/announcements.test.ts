import type { OpsAnnouncement, Page, ServiceContact, TextMessPage } from "@tessera/contracts";
import { describe, expect, it } from "vitest";
import { registerMerchant, STRONG_PASSWORD } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { registerOperator } from "../../../test/operators";

const t = useTestApp();

describe("getQwContact and textMess", () => {
  it("the operator sets the contact; merchants read it; bad input changes nothing", async () => {
    const ops = await registerOperator(t);
    const m = await registerMerchant(t);
    const set = await t.call<ServiceContact>("PUT", "/api/ops/serviceContact", {
      token: ops.token,
      body: { name: "Tessera 客服", qrUrl: "https://example.com/qr.png", phone: "400-800-1234" },
    });
    expect(set.body.code).toBe(1);
    const seen = await t.call<ServiceContact>("GET", "/api/card-user/getQwContact", { token: m.token });
    expect(seen.body.data).toMatchObject({
      name: "Tessera 客服",
      qrUrl: "https://example.com/qr.png",
      phone: "400-800-1234",
    });

    const bad = await t.call("PUT", "/api/ops/serviceContact", {
      token: ops.token,
      lang: "en",
      body: { name: "X", qrUrl: "javascript:alert(1)", phone: "400-800-1234" },
    });
    expect([bad.status, bad.body.msg]).toEqual([400, "Please enter a correct QR image URL"]);
    const badPhone = await t.call("PUT", "/api/ops/serviceContact", {
      token: ops.token,
      lang: "tw",
      body: { name: "X", qrUrl: "/api/media/qr.png", phone: "call me" },
    });
    expect([badPhone.status, badPhone.body.msg]).toEqual([400, "請輸入正確的聯絡電話"]);
    expect(
      (await t.call<ServiceContact>("GET", "/api/card-user/getQwContact", { token: m.token })).body.data?.name,
    ).toBe("Tessera 客服");
    // Only operators set it.
    expect(
      (
        await t.call("PUT", "/api/ops/serviceContact", {
          token: m.token,
          body: { name: "Me", qrUrl: "https://x.example/q.png", phone: "12345678" },
        })
      ).status,
    ).toBe(403);
  });

  it("announcements reach the merchants of their audience, with read state per merchant", async () => {
    const ops = await registerOperator(t);
    const a = await registerMerchant(t, { orgName: "Reader A" });
    const b = await registerMerchant(t, { orgName: "Reader B" });
    const provider = await registerMerchant(t, { orgName: "Announce Provider" });
    await t.call("POST", `/api/ops/merchants/${provider.merchantId}/providerRole`, {
      token: ops.token,
      body: { grant: true },
    });
    const providerToken = (
      await t.call<{ token: string }>("POST", "/api/card-user/login", {
        body: { email: provider.email, password: STRONG_PASSWORD, version: "domestic" },
      })
    ).body.data.token;

    const before = (await t.call<TextMessPage>("GET", "/api/card-user/textMess", { token: a.token })).body.data.unread;
    const everyone = (
      await t.call<OpsAnnouncement>("POST", "/api/ops/announcements", {
        token: ops.token,
        body: { title: "Maintenance tonight", body: "The platform pauses 01:00-02:00." },
      })
    ).body.data;
    const providersOnly = (
      await t.call<OpsAnnouncement>("POST", "/api/ops/announcements", {
        token: ops.token,
        body: { title: "Commission closes", body: "Statements on the 3rd.", audience: "providers" },
      })
    ).body.data;

    const listA = (await t.call<TextMessPage>("GET", "/api/card-user/textMess", { token: a.token })).body.data;
    expect(listA.unread).toBe(before + 1);
    expect(listA.list.map((x) => x.id)).toContain(everyone.id);
    expect(listA.list.map((x) => x.id)).not.toContain(providersOnly.id);
    expect(
      (await t.call<TextMessPage>("GET", "/api/card-user/textMess", { token: providerToken })).body.data.list.map(
        (x) => x.id,
      ),
    ).toEqual(expect.arrayContaining([everyone.id, providersOnly.id]));
    // A merchant outside the audience cannot mark it either.
    expect((await t.call("PUT", `/api/card-user/textMess/${providersOnly.id}/read`, { token: a.token })).status).toBe(
      404,
    );

    // A reads it (twice: no change), B has not.
    expect((await t.call("PUT", `/api/card-user/textMess/${everyone.id}/read`, { token: a.token })).body.code).toBe(1);
    expect((await t.call("PUT", `/api/card-user/textMess/${everyone.id}/read`, { token: a.token })).body.code).toBe(1);
    const afterA = (await t.call<TextMessPage>("GET", "/api/card-user/textMess", { token: a.token })).body.data;
    expect(afterA.unread).toBe(before);
    expect(afterA.list.find((x) => x.id === everyone.id)?.read).toBe(true);
    const listB = (await t.call<TextMessPage>("GET", "/api/card-user/textMess?unread=true", { token: b.token })).body
      .data;
    expect(listB.list.find((x) => x.id === everyone.id)?.read).toBe(false);
    expect(
      (await t.call<{ marked: number }>("PUT", "/api/card-user/textMess/read", { token: b.token })).body.data.marked,
    ).toBe(listB.unread);
    expect((await t.call<TextMessPage>("GET", "/api/card-user/textMess", { token: b.token })).body.data.unread).toBe(0);

    const opsList = (await t.call<Page<OpsAnnouncement>>("GET", "/api/ops/announcements", { token: ops.token })).body
      .data;
    expect(opsList.list.find((x) => x.id === everyone.id)?.reads).toBe(2);

    // Withdrawn: gone from the merchants' lists; withdrawing again changes nothing; unknown is 404.
    expect((await t.call("DELETE", `/api/ops/announcements/${providersOnly.id}`, { token: ops.token })).body.code).toBe(
      1,
    );
    expect((await t.call("DELETE", `/api/ops/announcements/${providersOnly.id}`, { token: ops.token })).body.code).toBe(
      1,
    );
    expect((await t.call("DELETE", "/api/ops/announcements/999999999", { token: ops.token })).status).toBe(404);
    expect(
      (await t.call<TextMessPage>("GET", "/api/card-user/textMess", { token: providerToken })).body.data.list.map(
        (x) => x.id,
      ),
    ).not.toContain(providersOnly.id);

    const empty = await t.call("POST", "/api/ops/announcements", {
      token: ops.token,
      lang: "en",
      body: { title: " ", body: "x" },
    });
    expect([empty.status, empty.body.msg]).toEqual([400, "Please enter the announcement's title"]);
    expect(
      (await t.call("POST", "/api/ops/announcements", { token: a.token, body: { title: "x", body: "y" } })).status,
    ).toBe(403);
    expect((await t.call("GET", "/api/card-user/textMess", {})).status).toBe(401);
  });
});
