import { describe, expect, it } from "vitest";
import { lastCode, registerMerchant, uniquePhone } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { markVerified } from "../../../test/docking";
import { addSubAccount } from "../../../test/kit/onboarding-fixtures";

/**
 * A sub-account limited to some menus (issue 38 item 8, issue 40 item 12): it reads the company's balances
 * only with a funds page among its menus, and never signs an agreement for the company (the main account
 * does), whatever its menus.
 */
const t = useTestApp();

interface Info {
  merchant: { merchantId: string } | null;
  balances: { sup: { amount: number }; income: { amount: number }; reserve: { amount: number } } | null;
}
const info = async (token: string) => (await t.call<Info>("GET", "/api/card-user/userInfo", { token })).body.data;
const FORBIDDEN_EN = "You do not have permission for this";
const newPhone = () => uniquePhone("13");
async function smsCode(token: string, phone: string): Promise<string> {
  expect(
    (await t.call("POST", "/api/card-user/sendSms", { token, body: { phone, scene: "signAgreement" } })).body.code,
  ).toBe(1);
  return lastCode(t, phone);
}

describe("a limited sub-account", () => {
  it("reads balances in userInfo only with a funds page among its menus", async () => {
    const brand = await registerMerchant(t);
    const owner = await info(brand.token);
    expect(owner.balances).not.toBeNull();

    // A clerk given only the write-off records: the company, not its money.
    const clerk = await addSubAccount(t, brand.token, ["business/WriteOff"]);
    const seen = await info(clerk.token);
    expect(seen.merchant?.merchantId).toBe(brand.merchantId);
    expect(seen.balances).toBeNull();
    // Several pages, none of them funds: still none.
    expect(
      (
        await info(
          (await addSubAccount(t, brand.token, ["business/BasicInfo", "business/SuppliedProducts", "sale/ApiSecurity"]))
            .token,
        )
      ).balances,
    ).toBeNull();

    // Given a funds page (the supplier's fund changes, the purchaser's fund page): the same balances as the owner.
    for (const menus of [
      ["business/WriteOff", "business/ChangesFunds"],
      ["sale/FundRelated"],
      ["sale/WithdrawalRecord"],
    ]) {
      expect((await info((await addSubAccount(t, brand.token, menus)).token)).balances, menus.join()).toEqual(
        owner.balances,
      );
    }
  });

  it("never signs the company's agreements: 403 with the usual message, nothing signed, the code still usable", async () => {
    const m = await registerMerchant(t);
    const sub = await addSubAccount(t, m.token, ["sale/commitLetter", "sale/BasicInformation"]);
    const phone = newPhone();
    const code = await smsCode(sub.token, phone);
    const body = {
      kind: "eSignature",
      version: (
        await t.call<{ kind: string; version: string }[]>("GET", "/api/card-user/agreements/templates", {
          token: m.token,
        })
      ).body.data.find((a) => a.kind === "eSignature")?.version,
      consent: true,
      phone,
      smsCode: code,
    };
    const refused = await t.call("POST", "/api/card-user/agreements/sign", { token: sub.token, body, lang: "en" });
    expect([refused.status, refused.body.msg]).toEqual([403, FORBIDDEN_EN]);
    expect((await t.call<unknown[]>("GET", "/api/card-user/agreements", { token: m.token })).body.data).toEqual([]);
    // The main account signs with the same code: the refusal did not spend it.
    expect((await t.call("POST", "/api/card-user/agreements/sign", { token: m.token, body })).body.code).toBe(1);
  });

  it("given the docking page, lists and reviews dockings but does not sign the docking agreement", async () => {
    const supplier = await registerMerchant(t);
    const buyer = await registerMerchant(t);
    for (const x of [buyer, supplier]) await markVerified(t, x.merchantId);
    const applied = await t.call<{ id: string }>("POST", "/api/card-user/abutment/brander/apply", {
      token: buyer.token,
      body: { supplierId: supplier.merchantId },
    });
    const id = applied.body.data.id;
    const supplierClerk = await addSubAccount(t, supplier.token, ["business/ProcurementLiaison"]);
    // Reviewing is the docking page's work: the clerk approves.
    expect(
      (
        await t.call("POST", `/api/card-user/abutment/brander/review/${id}`, {
          token: supplierClerk.token,
          body: { approve: true },
        })
      ).body.code,
    ).toBe(1);

    const buyerClerk = await addSubAccount(t, buyer.token, ["sale/SupplierDocking"]);
    expect((await t.call("GET", "/api/card-user/abutment/brander/apply", { token: buyerClerk.token })).status).toBe(
      200,
    );
    for (const clerk of [buyerClerk, supplierClerk]) {
      const phone = newPhone();
      const verifyCode = await smsCode(clerk.token, phone);
      const refused = await t.call("POST", `/api/card-user/abutment/brander/confirm/${id}`, {
        token: clerk.token,
        body: { phone, verifyCode },
        lang: "en",
      });
      expect([refused.status, refused.body.msg]).toEqual([403, FORBIDDEN_EN]);
      // Not spent: the main account of the same side signs with it.
      const owner = clerk === buyerClerk ? buyer : supplier;
      expect(
        (
          await t.call("POST", `/api/card-user/abutment/brander/confirm/${id}`, {
            token: owner.token,
            body: { phone, verifyCode },
          })
        ).body.code,
      ).toBe(1);
    }
    const row = await t.ctx.database.db
      .selectFrom("dockings")
      .selectAll()
      .where("id", "=", Number(id))
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      purchaser_signed_by: Number(buyer.userId),
      supplier_signed_by: Number(supplier.userId),
    });
  });
});
