import { AccountHome } from "../../features/accounts/AccountHome";

/** `/international/sale/Home`: the international purchaser's home (USD or HKD). */
export default function InternationalSaleHome() {
  return <AccountHome role="sale" />;
}
