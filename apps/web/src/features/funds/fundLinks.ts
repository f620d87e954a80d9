import type { AreaDef } from "../../ui/areas";
import { pageAllowed } from "../onboarding/menus";

/** The funds pages a home page links to, by route name; each is shown only where its area has it. */
export const FUND_LINKS = [
  { paths: ["RechargeSheet"], labelKey: "funds.menu.topUp", testId: "home-topup" },
  {
    paths: ["FundRelated", "FundsChange", "ChangesFunds", "ChangesFundsP"],
    labelKey: "funds.menu.fundRelated",
    testId: "home-funds",
  },
  {
    paths: ["WithdrawalRecord", "WithdrawalRecordB", "WithdrawalRecordP"],
    labelKey: "withdraw.withdraw",
    testId: "home-withdraw",
  },
] as const;

export type FundLinkId = (typeof FUND_LINKS)[number]["testId"];

/** The pages whose calls a transfer uses (the server's transfers guard): the supplier's fund changes. */
const TRANSFER_MENUS = ["business/ChangesFunds", "business/Transfers"];

/**
 * What a home page's fund shortcuts show for this area and these menus (null: the main account, every page;
 * undefined: not known yet, so nothing: a sub-account must never see the company's fund buttons, not even
 * for a moment). Each link only when the area has its page and the account may open it (issue 40 item 12);
 * the supplier's transfer only to an account the server lets transfer.
 */
export function homeFundLinks(
  area: AreaDef,
  menus: readonly string[] | null | undefined,
): { links: { testId: FundLinkId; labelKey: string; to: string }[]; transfer: boolean } {
  if (menus === undefined) return { links: [], transfer: false };
  const links = FUND_LINKS.flatMap((l) => {
    const page = area.pages.find((p) => (l.paths as readonly string[]).includes(p.path));
    return page && pageAllowed(menus, area, page)
      ? [{ testId: l.testId, labelKey: l.labelKey, to: `${area.base}/${page.path}` }]
      : [];
  });
  const transfer = area.role === "business" && (menus === null || menus.some((m) => TRANSFER_MENUS.includes(m)));
  return { links, transfer };
}
