import { useTranslation } from "react-i18next";
import { PageHint } from "../../ui/PageHint";
import { ServedOrders } from "./ServedOrders";

/** `/providers/OrderManagement`: see ServedOrders (the served merchants' orders, mode "all"). */
export default function OrderManagement() {
  const { t } = useTranslation();
  return (
    <ServedOrders
      mode="all"
      header={
        <PageHint
          id="providers.OrderManagement"
          title={t("providerOps.hint.ordersTitle")}
          description={t("providerOps.hint.orders")}
        />
      }
    />
  );
}
