import { useTranslation } from "react-i18next";
import { Flex } from "antd";
import { PageHint } from "../../ui/PageHint";
import { ApplicationList } from "./ApplicationList";

/** `/business/VendorPurchaseForm`: purchasers' applications for the supplier's goods, approved with their price. */
export default function VendorPurchaseForm() {
  const { t } = useTranslation();
  return (
    <Flex vertical gap={16}>
      <PageHint
        id="business.VendorPurchaseForm"
        title={t("application.hint.businessTitle")}
        description={t("application.hint.business")}
      />
      <ApplicationList side="supplier" />
    </Flex>
  );
}
