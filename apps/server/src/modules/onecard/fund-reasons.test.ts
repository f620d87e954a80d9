import type { FundChangeRow } from "@tessera/contracts";
import { afterAll, expect, it } from "vitest";
import { useTestApp } from "../../../test/kit/use-test-app";
import { checkInvariants } from "../ledger";
import { cardInBagOf } from "../../../test/kit/redeem-fixtures";

const t = useTestApp();
afterAll(async () => {
  expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
});

/** Issue 37: card sales and activations are their own change types, and their reasons read as words in the reader's language. */
it("a card activation shows in the brand's income as 一卡通激活 with a human reason, in each language", async () => {
  const { brand } = await cardInBagOf(t, "Reasons Brand", "13800138455");
  const rows = async (lang: "cn" | "tw" | "en") =>
    (
      await t.call<{ list: FundChangeRow[] }>("GET", "/api/card-user/funds/changes?account=income", {
        token: brand.token,
        lang,
      })
    ).body.data.list;
  const en = (await rows("en")).find((r) => r.type === "card_activation");
  expect(en).toMatchObject({ increase: 10_000, reason: "1 one-card card(s) activated" });
  expect((await rows("cn")).find((r) => r.type === "card_activation")?.reason).toBe("一卡通激活1张");
  expect((await rows("tw")).find((r) => r.type === "card_activation")?.reason).toBe("一卡通激活1張");
  // The filter by the new type finds it.
  const filtered = await t.call<{ list: FundChangeRow[] }>(
    "GET",
    "/api/card-user/funds/changes?account=income&type=card_activation",
    { token: brand.token, lang: "en" },
  );
  expect(filtered.body.data.list.map((r) => r.type)).toEqual(["card_activation"]);
});
