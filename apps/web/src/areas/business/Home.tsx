import { AccountHome } from "../../features/accounts/AccountHome";

/** `/business/Home`: the supplier's home: account balance, SUP balance, account info and actions. */
export default function BusinessHome() {
  return <AccountHome role="business" />;
}
