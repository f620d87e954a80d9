import { WhitelistList } from "../../features/purchasing/WhitelistList";

/**
 * `/business/VendorWhiteList`: purchasers the supplier (vendor) lets buy every goods of its own without a
 * docking. Spec 01 names the page only; our reading: a vendor-wide whitelist, beside docking and brand
 * authorisation the third way a purchaser may buy (guess).
 */
export default function VendorWhiteList() {
  return <WhitelistList scope="vendor" />;
}
