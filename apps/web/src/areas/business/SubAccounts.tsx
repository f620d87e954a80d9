import { SubAccountsPage } from "../../features/onboarding/SubAccountsPage";

/** `/business/SubAccounts`: the supplier's sub-accounts and the pages each may open. */
export default function SubAccounts() {
  return <SubAccountsPage pageId="business.SubAccounts" />;
}
