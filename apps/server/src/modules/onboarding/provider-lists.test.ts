import { beforeAll, describe, expect, it } from "vitest";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { registerOperator } from "../../../test/operators";
import { addSubAccount } from "../../../test/kit/onboarding-fixtures";

const t = useTestApp();
let ops: { token: string };
beforeAll(async () => {
  ops = await registerOperator(t);
});

type Served = {
  list: { id: string; merchantId: string; merchantName: string; providerId: string; kind: string }[];
  total: number;
};

/** A merchant an operator made a service provider. */
async function provider(orgName: string) {
  const p = await registerMerchant(t, { orgName });
  const granted = await t.call("POST", `/api/ops/merchants/${p.merchantId}/providerRole`, {
    token: ops.token,
    body: { grant: true },
  });
  expect(granted.status).toBe(200);
  return p;
}

async function bindTo(providerId: string, orgName: string, kind: "brand" | "vendor" = "brand") {
  const m = await registerMerchant(t, { orgName });
  const bound = await t.call<{ id: string }>("POST", "/api/card-servicer/brander/service", {
    token: m.token,
    body: { providerId, kind },
  });
  expect(bound.body.code).toBe(1);
  return { ...m, bindingId: bound.body.data.id };
}

const served = (token: string, body: Record<string, unknown> = {}) =>
  t.call<Served>("POST", "/api/card-servicer/brander", { token, body });

describe("the provider's lists (providers/BrandsList, VendorList)", () => {
  it("tenancy: each provider sees only the merchants bound to it, and cannot end another's binding", async () => {
    const a = await provider("Alpha Services");
    const b = await provider("Beta Services");
    const a1 = await bindTo(a.merchantId, "Alpha Brand One");
    const a2 = await bindTo(a.merchantId, "Alpha Brand Two");
    const b1 = await bindTo(b.merchantId, "Beta Brand");

    const ofA = await served(a.token);
    expect(ofA.body.data.total).toBe(2);
    expect(ofA.body.data.list.map((r) => r.merchantId).sort()).toEqual([a1.merchantId, a2.merchantId].sort());
    expect(ofA.body.data.list.every((r) => r.providerId === a.merchantId)).toBe(true);
    const ofB = await served(b.token);
    expect(ofB.body.data.list.map((r) => r.merchantName)).toEqual(["Beta Brand"]);

    // Searching another provider's merchant by id or name finds nothing.
    expect((await served(a.token, { keyword: b1.merchantId })).body.data.total).toBe(0);
    expect((await served(a.token, { keyword: "Beta" })).body.data.total).toBe(0);
    expect((await served(a.token, { keyword: "Two" })).body.data.list.map((r) => r.merchantId)).toEqual([
      a2.merchantId,
    ]);

    // Ending or entering B's binding with A's session: not found, and nothing changes.
    expect((await t.call("DELETE", `/api/card-servicer/brander/${b1.bindingId}`, { token: a.token })).status).toBe(404);
    expect((await t.call("POST", `/api/card-servicer/brander/${b1.bindingId}/token`, { token: a.token })).status).toBe(
      404,
    );
    expect((await served(b.token)).body.data.total).toBe(1);
  });

  it("pages the list; a merchant without the role, a bad page size and a sub-account without the page are refused", async () => {
    const p = await provider("Paging Services");
    for (const n of [1, 2, 3]) await bindTo(p.merchantId, `Paged Brand ${n}`);
    const first = await served(p.token, { page: 1, pageSize: 20 });
    expect(first.body.data).toMatchObject({ total: 3, page: 1, pageSize: 20 });
    expect(first.body.data.list).toHaveLength(3);
    expect((await served(p.token, { page: 2, pageSize: 20 })).body.data.list).toHaveLength(0);

    const bad = await t.call("POST", "/api/card-servicer/brander", {
      token: p.token,
      lang: "en",
      body: { pageSize: 7 },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/page size/i);

    const plain = await registerMerchant(t);
    expect((await served(plain.token)).status).toBe(403);

    const clerk = await addSubAccount(t, p.token, ["providers/EssentialInfo"]);
    expect((await served(clerk.token)).status).toBe(403);
    const lister = await addSubAccount(t, p.token, ["providers/BrandsList"]);
    expect((await served(lister.token)).body.data.total).toBe(3);
  });

  it("a stored kind: brands and vendors are listed apart, and only a brand can be entered with a brand token", async () => {
    const p = await provider("Kind Services");
    const brand = await bindTo(p.merchantId, "Kind Brand", "brand");
    const vendor = await bindTo(p.merchantId, "Kind Vendor", "vendor");
    const brands = await served(p.token, { kind: "brand" });
    expect(brands.body.data.list.map((r) => [r.merchantName, r.kind])).toEqual([["Kind Brand", "brand"]]);
    const vendors = await served(p.token, { kind: "vendor" });
    expect(vendors.body.data.list.map((r) => [r.merchantName, r.kind])).toEqual([["Kind Vendor", "vendor"]]);
    expect((await served(p.token)).body.data.total).toBe(2);

    // The merchant sees each of its bindings by kind; it may hold one of each, not two of one kind.
    const mine = (kind: string) =>
      t.call<{ id: string; kind: string } | null>("GET", `/api/card-servicer/brander/service?kind=${kind}`, {
        token: vendor.token,
      });
    expect((await mine("vendor")).body.data).toMatchObject({ id: vendor.bindingId, kind: "vendor" });
    expect((await mine("brand")).body.data).toBeNull();
    const asBrand = await t.call<{ kind: string }>("POST", "/api/card-servicer/brander/service", {
      token: vendor.token,
      body: { providerId: p.merchantId, kind: "brand" },
    });
    expect(asBrand.body.data.kind).toBe("brand");
    const twice = await t.call("POST", "/api/card-servicer/brander/service", {
      token: vendor.token,
      lang: "en",
      body: { providerId: p.merchantId, kind: "vendor" },
    });
    expect([twice.status, twice.body.msg]).toEqual([
      409,
      "A service provider is already bound; remove it first to change",
    ]);

    // A vendor binding cannot be entered as a brand; a brand binding can.
    const enterVendor = await t.call("POST", `/api/card-servicer/brander/${vendor.bindingId}/token`, {
      token: p.token,
      lang: "en",
    });
    expect([enterVendor.status, enterVendor.body.msg]).toEqual([
      409,
      "This merchant bound you as a merchant, not as a brand: its brand context cannot be entered",
    ]);
    expect(
      (await t.call("POST", `/api/card-servicer/brander/${brand.bindingId}/token`, { token: p.token })).body.code,
    ).toBe(1);

    // The kind is required, with its message in three languages.
    const other = await registerMerchant(t, { orgName: "Kindless" });
    for (const [lang, msg] of [
      ["cn", "请选择绑定类型（品牌或商户）"],
      ["tw", "請選擇綁定類型（品牌或商戶）"],
      ["en", "Choose what you bind the provider as: brand or merchant"],
    ] as const) {
      const res = await t.call("POST", "/api/card-servicer/brander/service", {
        token: other.token,
        lang,
        body: { providerId: p.merchantId },
      });
      expect([res.status, res.body.msg]).toEqual([400, msg]);
    }
    expect((await t.call("GET", "/api/card-servicer/brander/service", { token: other.token, lang: "en" })).status).toBe(
      400,
    );
  });
});
