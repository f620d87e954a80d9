import type { SetupChecklist } from "@tessera/contracts";
import { expect, it } from "vitest";
import { newMerchant } from "../../../test/kit/catalog-fixtures";
import { storeOf } from "../../../test/kit/redeem-fixtures";
import { useTestApp } from "../../../test/kit/use-test-app";

/**
 * Issue 40, item 13: a new merchant's home says what comes next for each capability, and follows as steps
 * are done; the template library has a mall template per platform from the start.
 */
const t = useTestApp();

it("the setup checklist starts empty, follows what the merchant does, and the template library is never empty", async () => {
  const m = await newMerchant(t, "Setup Tea Ltd");
  const checklist = async () =>
    (await t.call<SetupChecklist>("GET", "/api/card-user/setup/checklist", { token: m.token })).body.data;
  const steps = (c: SetupChecklist, key: string) =>
    Object.fromEntries((c.capabilities.find((x) => x.key === key)?.steps ?? []).map((s) => [s.key, s.done]));

  const fresh = await checklist();
  expect(fresh.capabilities.map((c) => c.key)).toEqual(["cards", "stores", "takeout", "collection", "mall"]);
  expect(fresh.capabilities.flatMap((c) => c.steps).every((s) => !s.done && s.page.startsWith("/"))).toBe(true);

  await storeOf(t, m, "Setup flagship");
  const product = await t.call("POST", "/api/card-brander/onecard/products", {
    token: m.token,
    body: {
      kind: "face_value",
      name: "Setup card",
      faceValue: 10_000,
      salePrice: 10_000,
      named: false,
      validity: { kind: "days", days: 1200 },
      rechargeAllowed: false,
      scope: "",
      terms: "",
    },
  });
  expect(product.body.code, product.body.msg).toBe(1);
  const after = await checklist();
  expect(steps(after, "stores")).toEqual({ store: true, clerk: false });
  expect(steps(after, "cards")).toEqual({ product: true, issue: false, purchasers: false, stores: true });
  expect(steps(after, "mall")).toEqual({ config: false, authorize: false, goods: false, sms: false, release: false });
  // Another merchant's progress is its own.
  const other = await newMerchant(t, "Setup Other Ltd");
  const theirs = (await t.call<SetupChecklist>("GET", "/api/card-user/setup/checklist", { token: other.token })).body
    .data;
  expect(theirs.capabilities.flatMap((c) => c.steps).some((s) => s.done)).toBe(false);
  expect((await t.call("GET", "/api/card-user/setup/checklist", {})).status).toBe(401);

  for (const platform of ["wechat", "douyin"]) {
    const list = await t.call<{ list: { name: string }[] }>(
      "GET",
      `/api/card-user/miniProgram/templates?platform=${platform}`,
      {
        token: m.token,
      },
    );
    expect(list.body.data.list.map((x) => x.name).some((n) => n.startsWith("标准权益商城"))).toBe(true);
  }
});
