import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { Flex, Tabs } from "antd";
import { RequiredStatesNotice } from "../onboarding/RequiredStatesNotice";
import { PageHint } from "../../ui/PageHint";
import { ApiPurchaseTable } from "./ApiPurchaseTable";
import { ApplicationList } from "./ApplicationList";

/**
 * `/sale/GoodsPurchaseForm` (marketplace screen 11): goods applied for and being purchased, at the price
 * each supplier set, bought from here through the purchase form; beside it the API purchase table for
 * purchasers who buy through the open API.
 */
export default function GoodsPurchaseForm() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tab = params.get("tab") === "api" ? "api" : "form";
  return (
    <Flex vertical gap={16}>
      <PageHint
        id="sale.GoodsPurchaseForm"
        title={t("application.hint.saleTitle")}
        description={t("application.hint.sale")}
      />
      <RequiredStatesNotice />
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams(key === "api" ? { tab: "api" } : {})}
        items={[
          { key: "form", label: t("apiPurchase.tabForm"), children: <ApplicationList side="purchaser" /> },
          { key: "api", label: t("apiPurchase.title"), children: <ApiPurchaseTable /> },
        ]}
        destroyOnHidden
      />
    </Flex>
  );
}
