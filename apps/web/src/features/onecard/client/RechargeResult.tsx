import { useQuery } from "@tanstack/react-query";
import { Button, Result, Spin } from "antd";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import type { OcOrder, Page } from "@tessera/contracts";
import { customerCall } from "../../customer/customerApi";
import { fmt } from "./format";
import { Shell } from "../../customer/Shell";

const STATUS = { processing: "info", success: "success", failed: "warning", refunded: "warning" } as const;

/**
 * `/client/rechargeResult`: the outcome of paying for an equity with a card. While the top-up is with the
 * supplier the page looks again every few seconds; a failed one says the card was paid back, and why.
 */
export default function RechargeResult() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = params.get("order");
  const order = useQuery({
    queryKey: ["onecard", "order", id],
    enabled: id !== null,
    queryFn: async () => {
      const r = await customerCall<Page<OcOrder>>("GET", "/api/mall/onecard/orders?pageSize=50");
      return r.ok ? (r.data.list.find((o) => o.id === id) ?? null) : null;
    },
    refetchInterval: (q) => (q.state.data?.state === "processing" ? 4_000 : false),
  });
  const o = order.data;
  const title = !o
    ? ""
    : o.state === "processing"
      ? t("onecard.resultProcessing")
      : o.state === "success"
        ? t("onecard.resultSuccess")
        : t("onecard.resultFailed");
  return (
    <Shell title={t("onecard.title.result")} tabs={false}>
      {order.isLoading && <Spin />}
      {o && (
        <Result
          status={STATUS[o.state]}
          title={<span data-testid="recharge-result">{title}</span>}
          subTitle={[`${o.equity} · ${fmt(o.amount)}`, `${t("onecard.account")}: ${o.account}`, o.failReason]
            .filter(Boolean)
            .join(" · ")}
          extra={[
            <Link key="bag" to="/client/cardBag">
              <Button type="primary">{t("onecard.title.cardBag")}</Button>
            </Link>,
            <Link key="orders" to="/client/orderList">
              <Button>{t("onecard.title.orders")}</Button>
            </Link>,
          ]}
        />
      )}
    </Shell>
  );
}
