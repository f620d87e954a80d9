import { useTranslation } from "react-i18next";
import { PageHint } from "../../components/PageHint";
import { OrderList } from "../../components/purchasing/OrderList";

/** `/sale/PurchaseOrder`: the purchaser's orders, with the codes of card-secret orders. */
export default function PurchaseOrder() {
  const { t } = useTranslation();
  return <OrderList side="purchaser" header={<PageHint id="sale.PurchaseOrder" title={t("order.hint.saleTitle")} description={t("order.hint.sale")} />} />;
}
