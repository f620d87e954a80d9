import { OrderTabs } from "../../features/purchasing/OrderTabs";

/** `/sale/PurchaseOrder`: orders, refund orders, purchase report, refund report. */
export default function PurchaseOrder() {
  return <OrderTabs side="purchaser" />;
}
