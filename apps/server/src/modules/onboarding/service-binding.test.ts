import { beforeAll, describe, expect, it } from "vitest";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { registerOperator } from "../../../test/operators";
import { addSubAccount } from "../../../test/kit/onboarding-fixtures";

const t = useTestApp();
let ops: { token: string; userId: number };
beforeAll(async () => {
  ops = await registerOperator(t);
});

type Binding = { id: string; merchantId: string; providerId: string; providerName: string; merchantName: string };

/** A merchant an operator made a service provider (it logs in again to carry the new role). */
async function provider(name = "Harbour Services") {
  const p = await registerMerchant(t, { orgName: name });
  const granted = await t.call<{ roles: string[] }>("POST", `/api/ops/merchants/${p.merchantId}/providerRole`, {
    token: ops.token,
    body: { grant: true },
  });
  expect(granted.body.data.roles).toContain("providers");
  return p;
}

describe("service-provider binding", () => {
  it("binds a provider, which lists the merchant; either side can end it", async () => {
    const p = await provider();
    const m = await registerMerchant(t, { orgName: "Bound Buyer" });
    expect(
      (await t.call("GET", "/api/card-servicer/brander/service?kind=brand", { token: m.token })).body.data,
    ).toBeNull();
    const bound = await t.call<Binding>("POST", "/api/card-servicer/brander/service", {
      token: m.token,
      body: { providerId: p.merchantId, kind: "brand" },
    });
    expect(bound.body.data).toMatchObject({
      merchantId: m.merchantId,
      providerId: p.merchantId,
      providerName: "Harbour Services",
    });

    const again = await t.call("POST", "/api/card-servicer/brander/service", {
      token: m.token,
      lang: "en",
      body: { providerId: p.merchantId, kind: "brand" },
    });
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe("A service provider is already bound; remove it first to change");

    const served = await t.call<{ list: Binding[]; total: number }>("POST", "/api/card-servicer/brander", {
      token: p.token,
      body: { page: 1, pageSize: 20 },
    });
    expect(served.body.data.list.map((b) => b.merchantName)).toEqual(["Bound Buyer"]);
    const byName = await t.call<{ total: number }>("POST", "/api/card-servicer/brander", {
      token: p.token,
      body: { keyword: "nobody" },
    });
    expect(byName.body.data.total).toBe(0);

    // The provider ends it; the merchant no longer has one, and may bind again.
    expect(
      (await t.call("DELETE", `/api/card-servicer/brander/${bound.body.data.id}`, { token: p.token })).body.code,
    ).toBe(1);
    expect(
      (await t.call("GET", "/api/card-servicer/brander/service?kind=brand", { token: m.token })).body.data,
    ).toBeNull();
    expect(
      (await t.call("DELETE", `/api/card-servicer/brander/${bound.body.data.id}`, { token: m.token })).status,
    ).toBe(404);
    expect(
      (
        await t.call("POST", "/api/card-servicer/brander/service", {
          token: m.token,
          body: { providerId: p.merchantId, kind: "brand" },
        })
      ).body.code,
    ).toBe(1);
  });

  it("refuses non-providers, itself and a bad id in three languages", async () => {
    const m = await registerMerchant(t);
    const plain = await registerMerchant(t);
    const cases: [string, { cn: string; tw: string; en: string }][] = [
      [
        plain.merchantId,
        {
          cn: "未找到该服务商，请核对服务商ID",
          tw: "未找到該服務商，請核對服務商ID",
          en: "No service provider has this ID",
        },
      ],
      [
        "abc",
        {
          cn: "未找到该服务商，请核对服务商ID",
          tw: "未找到該服務商，請核對服務商ID",
          en: "No service provider has this ID",
        },
      ],
      [
        m.merchantId,
        {
          cn: "不能绑定自己为服务商",
          tw: "不能綁定自己為服務商",
          en: "You cannot bind yourself as your service provider",
        },
      ],
    ];
    for (const [providerId, messages] of cases) {
      for (const lang of ["cn", "tw", "en"] as const) {
        const res = await t.call("POST", "/api/card-servicer/brander/service", {
          token: m.token,
          lang,
          body: { providerId, kind: "brand" },
        });
        expect(res.status).toBe(400);
        expect(res.body.msg).toBe(messages[lang]);
      }
    }
    expect(
      (await t.call("GET", "/api/card-servicer/brander/service?kind=brand", { token: m.token })).body.data,
    ).toBeNull();
    // A merchant without the providers role has no served list.
    expect((await t.call("POST", "/api/card-servicer/brander", { token: m.token, body: {} })).status).toBe(403);
  });

  it("tenancy: a stranger cannot end or see a binding; sub-accounts cannot bind; the role change is audited", async () => {
    const p = await provider("Audit Services");
    const m = await registerMerchant(t);
    const stranger = await registerMerchant(t);
    const bound = await t.call<Binding>("POST", "/api/card-servicer/brander/service", {
      token: m.token,
      body: { providerId: p.merchantId, kind: "brand" },
    });
    expect(
      (await t.call("DELETE", `/api/card-servicer/brander/${bound.body.data.id}`, { token: stranger.token })).status,
    ).toBe(404);
    expect(
      (await t.call<Binding>("GET", "/api/card-servicer/brander/service?kind=brand", { token: m.token })).body.data.id,
    ).toBe(bound.body.data.id);

    const sub = await addSubAccount(t, stranger.token, ["sale/ServiceBind"]);
    expect(
      (
        await t.call("POST", "/api/card-servicer/brander/service", {
          token: sub.token,
          body: { providerId: p.merchantId, kind: "brand" },
        })
      ).status,
    ).toBe(403);
    const noMenu = await addSubAccount(t, stranger.token, ["sale/ApiSecurity"]);
    expect((await t.call("GET", "/api/card-servicer/brander/service?kind=brand", { token: noMenu.token })).status).toBe(
      403,
    );

    const log = await t.call<{ list: { action: string; before: { roles: string[] }; after: { roles: string[] } }[] }>(
      "GET",
      `/api/ops/auditLog?subjectType=merchant&subjectId=${p.merchantId}`,
      { token: ops.token },
    );
    expect(log.body.data.list[0]).toMatchObject({
      action: "merchant.grantProvider",
      before: { roles: ["sale", "business"] },
      after: { roles: ["sale", "business", "providers"] },
    });
    expect(
      (
        await t.call("POST", `/api/ops/merchants/${p.merchantId}/providerRole`, {
          token: m.token,
          body: { grant: true },
        })
      ).status,
    ).toBe(403);
  });
});
