import { useTranslation } from "react-i18next";
import { ServedMerchants } from "./ServedMerchants";

/** `/providers/VendorList`: the merchants bound to this provider as vendors (from sale/ServiceBind), with their real-name state; a binding can be ended here. */
export default function VendorList() {
  const { t } = useTranslation();
  return (
    <ServedMerchants
      pageId="providers.VendorList"
      kind="vendor"
      hintTitle={t("providers.list.vendorsHintTitle")}
      hint={t("providers.list.vendorsHint")}
    />
  );
}
