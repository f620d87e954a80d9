import { AccountHome } from "../../features/accounts/AccountHome";

/** `/sale/Home`: the purchaser's home: SUP and reserve/payment balances, account info and actions. */
export default function SaleHome() {
  return <AccountHome role="sale" />;
}
