import { useTranslation } from "react-i18next";
import { Flex } from "antd";
import { RequiredStatesNotice } from "../../components/onboarding/RequiredStatesNotice";
import { PageHint } from "../../components/PageHint";
import { ApplicationList } from "../../components/purchasing/ApplicationList";

/** `/sale/GoodsPurchaseForm`: goods applied for and being purchased, at the price each supplier set; buy from here. */
export default function GoodsPurchaseForm() {
  const { t } = useTranslation();
  return (
    <Flex vertical gap={16}>
      <PageHint id="sale.GoodsPurchaseForm" title={t("application.hint.saleTitle")} description={t("application.hint.sale")} />
      <RequiredStatesNotice />
      <ApplicationList side="purchaser" />
    </Flex>
  );
}
