import { AccountFundsPage } from "./AccountFundsPage";

/**
 * `/business/ChangesFunds` (and the international `business/ChangesFunds`, providers `ChangesFundsP`):
 * the income account: what sales brought in and what left it (withdrawals, refunds, transfers).
 */
export default function ChangesFunds() {
  return <AccountFundsPage accounts={["income"]} hintId="business.ChangesFunds" />;
}
