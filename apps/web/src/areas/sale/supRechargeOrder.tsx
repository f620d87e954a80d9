import { AccountFundsPage } from "../../features/funds/AccountFundsPage";

/** `/sale/supRechargeOrder`: SUP account top-ups: money moved from the reserve account, and the SUP account's changes. */
export default function SupRechargeOrder() {
  return (
    <AccountFundsPage
      accounts={["sup"]}
      hintId="sale.supRechargeOrder"
      transfer
      onlyType="reserve_transfer"
      hint="supRecharge"
    />
  );
}
