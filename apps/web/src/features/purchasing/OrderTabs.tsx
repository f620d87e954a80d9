import { Flex, Tabs } from "antd";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { PageHint } from "../../ui/PageHint";
import { OrderList } from "./OrderList";
import { OrderReport } from "./OrderReport";
import { RefundList } from "./RefundList";

const TABS = ["orders", "refunds", "purchaseReport", "refundReport"] as const;
type Tab = (typeof TABS)[number];

/**
 * The purchase orders screen (spec 01 §2 screen 12) with its four tabs: orders, refund orders, purchase
 * report, refund report; the same for a supplier's sales. The tab lives in the URL (`tab=`).
 */
export function OrderTabs({ side }: { side: "purchaser" | "supplier" }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tab: Tab = (TABS as readonly string[]).includes(params.get("tab") ?? "")
    ? (params.get("tab") as Tab)
    : "orders";
  const hint = side === "purchaser" ? "sale" : "business";
  return (
    <Flex vertical gap={8}>
      <PageHint id={`${hint}.orders`} title={t(`order.hint.${hint}Title`)} description={t(`order.hint.${hint}`)} />
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams(new URLSearchParams({ tab: key }))}
        destroyOnHidden
        items={TABS.map((key) => ({
          key,
          label: t(`order.tab.${key}`),
          children:
            key === "orders" ? (
              <OrderList side={side} />
            ) : key === "refunds" ? (
              <RefundList side={side} />
            ) : (
              <OrderReport side={side} kind={key === "purchaseReport" ? "purchase" : "refund"} />
            ),
        }))}
      />
    </Flex>
  );
}
