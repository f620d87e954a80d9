import { AccountFundsPage } from "../../features/funds/AccountFundsPage";

/**
 * `/sale/FundRelated` (and the international `sale/FundsChange`): the purchaser's fund changes of the
 * reserve/payment account and the SUP account, and the reserve transfer that moves money between them.
 */
export default function FundRelated() {
  return <AccountFundsPage accounts={["reserve", "sup"]} hintId="sale.FundRelated" transfer />;
}
