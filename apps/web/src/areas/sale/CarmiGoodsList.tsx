import { SelectionList } from "./selection/SelectionList";

/**
 * `/sale/CarmiGoodsList`: goods selection of card-secret goods (卡密) (spec 01 §2 screen 10). Purchasers see every goods on sale
 * in their version's scope; docking and whitelists narrow it with the purchasing issue.
 */
export default function CarmiGoodsList() {
  return <SelectionList type="card" />;
}
