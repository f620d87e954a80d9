import { useTranslation } from "react-i18next";
import { OrdersPage } from "./commerce/OrdersPage";

/** `/sale/VirtualOrders`: the purchaser's virtual goods orders: pay from SUP, cancel, tracking, confirm receipt, after-sales. */
export default function VirtualOrders() {
  const { t } = useTranslation();
  return <OrdersPage kind="virtual" hintId="sale.VirtualOrders" title={t("commerce.page.VirtualOrders")} />;
}
