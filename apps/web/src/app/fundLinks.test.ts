import { describe, expect, it } from "vitest";
import { AREAS } from "./routes";
import { homeFundLinks } from "../features/funds/fundLinks";

const area = (id: string) => {
  const a = AREAS.find((x) => x.id === id);
  if (!a) throw new Error(`no area ${id}`);
  return a;
};
const ids = (r: ReturnType<typeof homeFundLinks>) => [
  ...r.links.map((l) => l.testId),
  ...(r.transfer ? ["home-transfer"] : []),
];

/** Home fund shortcuts follow the account's menus (issue 40 item 12, issue 38 item 8). */
describe("the home page's fund shortcuts", () => {
  it("the main account sees every shortcut its area has", () => {
    expect(ids(homeFundLinks(area("sale"), null))).toEqual(["home-topup", "home-funds", "home-withdraw"]);
    expect(homeFundLinks(area("sale"), null).links.map((l) => l.to)).toEqual([
      "/sale/RechargeSheet",
      "/sale/FundRelated",
      "/sale/WithdrawalRecord",
    ]);
    expect(ids(homeFundLinks(area("business"), null))).toEqual(["home-funds", "home-transfer"]);
    expect(ids(homeFundLinks(area("providers"), null))).toEqual(["home-funds", "home-withdraw"]);
  });

  it("a sub-account given only the write-off records sees none; given one funds page, that one", () => {
    expect(ids(homeFundLinks(area("business"), ["business/WriteOff"]))).toEqual([]);
    expect(ids(homeFundLinks(area("sale"), ["sale/ApiSecurity"]))).toEqual([]);
    expect(ids(homeFundLinks(area("sale"), ["sale/WithdrawalRecord"]))).toEqual(["home-withdraw"]);
    expect(ids(homeFundLinks(area("business"), ["business/ChangesFunds"]))).toEqual(["home-funds", "home-transfer"]);
    // A supplier's statements are funds pages, but a transfer needs the fund changes.
    expect(ids(homeFundLinks(area("business"), ["business/Billing"]))).toEqual([]);
  });

  it("shows nothing until the menus are known, so a sub-account never glimpses the buttons", () => {
    expect(ids(homeFundLinks(area("sale"), undefined))).toEqual([]);
    expect(ids(homeFundLinks(area("business"), undefined))).toEqual([]);
  });
});
