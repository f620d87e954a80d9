import { AccountFundsPage } from "../../features/funds/AccountFundsPage";

/** `/sale/PurchaseFund`: the SUP account that pays for purchases, and its fund changes. */
export default function PurchaseFund() {
  return <AccountFundsPage accounts={["sup"]} hintId="sale.PurchaseFund" hint="purchaseFund" />;
}
