import { useTranslation } from "react-i18next";
import { PageHint } from "../../components/PageHint";
import { OrderList } from "../../components/purchasing/OrderList";

/** `/business/SalesOrder`: orders of the supplier's goods; direct top-ups are fulfilled here. */
export default function SalesOrder() {
  const { t } = useTranslation();
  return <OrderList side="supplier" header={<PageHint id="business.SalesOrder" title={t("order.hint.businessTitle")} description={t("order.hint.business")} />} />;
}
