import { useTranslation } from "react-i18next";
import { PageHint } from "../../ui/PageHint";
import { ServedOrders } from "./ServedOrders";

/** `/providers/RechargeOrder`: see ServedOrders (the served merchants' orders, mode "topUp"). */
export default function RechargeOrder() {
  const { t } = useTranslation();
  return (
    <ServedOrders
      mode="topUp"
      header={
        <PageHint
          id="providers.RechargeOrder"
          title={t("providerOps.hint.rechargeOrdersTitle")}
          description={t("providerOps.hint.rechargeOrders")}
        />
      }
    />
  );
}
