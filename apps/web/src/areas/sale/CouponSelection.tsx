import { SelectionList } from "./selection/SelectionList";

/**
 * `/sale/CouponSelection`: goods selection of coupon goods (券码) (spec 01 §2 screen 10). Purchasers see every goods on sale
 * in their version's scope; docking and whitelists narrow it with the purchasing issue.
 */
export default function CouponSelection() {
  return <SelectionList type="coupon" />;
}
