import { OrderTabs } from "../../features/purchasing/OrderTabs";

/** `/business/SalesOrder`: orders of the supplier's goods (fulfil direct top-ups), refunds, reports. */
export default function SalesOrder() {
  return <OrderTabs side="supplier" />;
}
