import { AccountHome } from "../../features/accounts/AccountHome";

/** `/international/business/Home`: the international supplier's home (USD or HKD). */
export default function InternationalBusinessHome() {
  return <AccountHome role="business" />;
}
