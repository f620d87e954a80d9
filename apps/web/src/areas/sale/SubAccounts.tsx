import { SubAccountsPage } from "../../features/onboarding/SubAccountsPage";

/** `/sale/SubAccounts`: the purchaser's sub-accounts and the pages each may open. */
export default function SubAccounts() {
  return <SubAccountsPage pageId="sale.SubAccounts" />;
}
