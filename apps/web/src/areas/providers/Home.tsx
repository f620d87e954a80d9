import { AccountHome } from "../../features/accounts/AccountHome";

/** `/providers/Home`: the service provider's home: account balance, account info and actions. */
export default function ProvidersHome() {
  return <AccountHome role="providers" />;
}
