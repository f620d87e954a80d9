import { useTranslation } from "react-i18next";
import { PageHint } from "../../ui/PageHint";
import { ServedOrders } from "./ServedOrders";

/** `/providers/BrandOrder`: see ServedOrders (the served merchants' orders, mode "brand"). */
export default function BrandOrder() {
  const { t } = useTranslation();
  return (
    <ServedOrders
      mode="brand"
      header={
        <PageHint
          id="providers.BrandOrder"
          title={t("providerOps.hint.brandOrdersTitle")}
          description={t("providerOps.hint.brandOrders")}
        />
      }
    />
  );
}
