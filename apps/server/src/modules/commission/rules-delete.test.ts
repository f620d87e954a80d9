import type { CommissionRule, RebateRule } from "@tessera/contracts";
import { describe, expect, it } from "vitest";
import { registerMerchant, STRONG_PASSWORD } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { registerOperator } from "../../../test/operators";

const t = useTestApp();

async function relogin(who: { email: string; token: string }): Promise<void> {
  const login = await t.call<{ token: string }>("POST", "/api/card-user/login", {
    body: { email: who.email, password: STRONG_PASSWORD, version: "domestic" },
  });
  if (login.body.code !== 1) throw new Error(login.body.msg);
  who.token = login.body.data.token;
}

describe("removing commission and rebate rules", () => {
  it("the operator removes a provider's commission rule once; a second removal and bad ids are refused; only operators remove", async () => {
    const ops = await registerOperator(t);
    const provider = await registerMerchant(t, { orgName: "Delete Provider" });
    await t.call("POST", `/api/ops/merchants/${provider.merchantId}/providerRole`, {
      token: ops.token,
      body: { grant: true },
    });
    await relogin(provider);
    const add = (rateBp: number) =>
      t.call<CommissionRule>("POST", "/api/ops/commission/rules", {
        token: ops.token,
        body: { providerId: provider.merchantId, rateBp, validFrom: "2026-01-01" },
      });
    const rule = (await add(300)).body.data;
    const mine = async () =>
      (
        await t.call<CommissionRule[]>("GET", "/api/card-servicer/commission/rules", { token: provider.token })
      ).body.data.map((r) => r.id);
    expect(await mine()).toEqual([rule.id]);

    // Not an operator: the provider cannot remove its own rule.
    expect((await t.call("DELETE", `/api/ops/commission/rules/${rule.id}`, { token: provider.token })).status).toBe(
      403,
    );
    expect(await mine()).toEqual([rule.id]);

    // Bad ids are refused before anything is looked up; an unknown one is not found.
    for (const bad of ["abc", "0", "-1", "1.5", "99999999999999999999"]) {
      expect((await t.call("DELETE", `/api/ops/commission/rules/${bad}`, { token: ops.token })).status, bad).toBe(400);
    }
    const unknown = await t.call("DELETE", "/api/ops/commission/rules/987654321", { token: ops.token, lang: "en" });
    expect([unknown.status, unknown.body.msg]).toEqual([404, "The commission rule does not exist"]);

    const removed = await t.call("DELETE", `/api/ops/commission/rules/${rule.id}`, { token: ops.token });
    expect([removed.status, removed.body.code, removed.body.data]).toEqual([200, 1, null]);
    expect(await mine()).toEqual([]);
    expect(
      (
        await t.call<CommissionRule[]>("GET", `/api/ops/commission/rules?providerId=${provider.merchantId}`, {
          token: ops.token,
        })
      ).body.data,
    ).toEqual([]);

    // A second removal: not found, in three languages.
    for (const [lang, msg] of [
      ["cn", "佣金规则不存在"],
      ["tw", "傭金規則不存在"],
      ["en", "The commission rule does not exist"],
    ] as const) {
      const again = await t.call("DELETE", `/api/ops/commission/rules/${rule.id}`, { token: ops.token, lang });
      expect([again.status, again.body.msg]).toEqual([404, msg]);
    }

    // The removed rule no longer blocks a rule of the same scope and validity.
    const replacement = await add(400);
    expect(replacement.body.code).toBe(1);
    expect(await mine()).toEqual([replacement.body.data.id]);
  });

  it("a supplier removes only its own rebate rules", async () => {
    const supplier = await registerMerchant(t, { orgName: "Rebate Owner" });
    const rival = await registerMerchant(t, { orgName: "Rebate Rival" });
    const add = (who: { token: string }) =>
      t.call<RebateRule>("POST", "/api/card-brander/rebate/rules", {
        token: who.token,
        body: { tiers: [{ minVolume: 0, rateBp: 100 }], validFrom: "2026-01-01" },
      });
    const own = (await add(supplier)).body.data;
    const theirs = (await add(rival)).body.data;
    const rulesOf = async (who: { token: string }) =>
      (await t.call<RebateRule[]>("GET", "/api/card-brander/rebate/rules", { token: who.token })).body.data.map(
        (r) => r.id,
      );

    // Another supplier's rule is not found for this one, and stays.
    const foreign = await t.call("DELETE", `/api/card-brander/rebate/rules/${theirs.id}`, {
      token: supplier.token,
      lang: "en",
    });
    expect([foreign.status, foreign.body.msg]).toEqual([404, "The rebate rule does not exist"]);
    expect(await rulesOf(rival)).toEqual([theirs.id]);
    expect((await t.call("DELETE", "/api/card-brander/rebate/rules/abc", { token: supplier.token })).status).toBe(400);

    expect(
      (await t.call("DELETE", `/api/card-brander/rebate/rules/${own.id}`, { token: supplier.token })).body.code,
    ).toBe(1);
    expect(await rulesOf(supplier)).toEqual([]);
    const again = await t.call("DELETE", `/api/card-brander/rebate/rules/${own.id}`, {
      token: supplier.token,
      lang: "cn",
    });
    expect([again.status, again.body.msg]).toEqual([404, "返利规则不存在"]);
    expect(await rulesOf(rival)).toEqual([theirs.id]);
  });
});
