import { AccountHome } from "../../components/account/AccountHome";

/** `/international/sale/Home`: the international purchaser's home (USD or HKD). */
export default function InternationalSaleHome() {
  return <AccountHome role="sale" />;
}
