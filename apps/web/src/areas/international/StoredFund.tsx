import { AccountFundsPage } from "../../features/funds/AccountFundsPage";

/** `/international/{sale,business}/storedFund`: the SUP account (payment funds) and its changes. */
export default function StoredFund() {
  return <AccountFundsPage accounts={["sup"]} hintId="intl.storedFund" />;
}
