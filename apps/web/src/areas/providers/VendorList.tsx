import { useTranslation } from "react-i18next";
import { ServedMerchants } from "./ServedMerchants";

/** `/providers/VendorList`: every merchant bound to this provider, with its real-name state; a binding can be ended here. */
export default function VendorList() {
  const { t } = useTranslation();
  return <ServedMerchants pageId="providers.VendorList" hintTitle={t("providers.list.vendorsHintTitle")} hint={t("providers.list.vendorsHint")} />;
}
