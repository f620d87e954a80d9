import { useTranslation } from "react-i18next";
import { OrdersPage } from "./commerce/OrdersPage";

/** `/sale/RealGoodsOrders`: the purchaser's physical goods orders: pay from SUP, cancel, tracking, confirm receipt, after-sales. */
export default function RealGoodsOrders() {
  const { t } = useTranslation();
  return <OrdersPage kind="physical" hintId="sale.RealGoodsOrders" title={t("commerce.page.RealGoodsOrders")} />;
}
