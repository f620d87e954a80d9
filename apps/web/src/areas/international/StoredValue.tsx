import { AccountFundsPage } from "../../features/funds/AccountFundsPage";

/** `/international/sale/storedValue`: the stored value (reserve account) that top-ups land in, and its changes. */
export default function StoredValue() {
  return <AccountFundsPage accounts={["reserve"]} hintId="intl.sale.storedValue" />;
}
