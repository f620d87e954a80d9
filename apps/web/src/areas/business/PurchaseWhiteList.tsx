import { WhitelistList } from "../../features/purchasing/WhitelistList";

/**
 * `/business/PurchaseWhiteList`: purchasers allowed to purchase one named goods of the supplier without a
 * docking (a per-goods whitelist; spec 01 names the page only, this is our reading).
 */
export default function PurchaseWhiteList() {
  return <WhitelistList scope="goods" />;
}
