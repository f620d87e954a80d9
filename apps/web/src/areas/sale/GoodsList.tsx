import { SelectionList } from "./selection/SelectionList";

/**
 * `/sale/GoodsList`: goods selection of direct top-up goods (直充) (spec 01 §2 screen 10). Purchasers see every goods on sale
 * in their version's scope; docking and whitelists narrow it with the purchasing issue.
 */
export default function GoodsList() {
  return <SelectionList type="direct" />;
}
