import { useQueryClient } from "@tanstack/react-query";
import { App, Button, Popconfirm, Space, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AFTERSALE_STATES, type Aftersale, type AfterSaleState } from "@tessera/contracts";
import { ListPage } from "../../ui/list/ListPage";
import { formatMoney } from "../../ui/money";
import { PageHint } from "../../ui/PageHint";
import { ShipBackDialog } from "./AftersaleDialog";
import { buyerApi, commerceKeys } from "./api";
import { AftersaleStateTag, skuLabel } from "./labels";
import { one } from "../onecard/query";
import { formatTime } from "../../ui/time";

const stateOf = (v: string | undefined): AfterSaleState | undefined =>
  (AFTERSALE_STATES as readonly string[]).includes(v ?? "") ? (v as AfterSaleState) : undefined;

/**
 * `/sale/OnlineRefundSheet`: the purchaser's after-sales requests (refund only, return and refund): send
 * the goods back once the brand agreed, withdraw a request, see the refund.
 */
export default function OnlineRefundSheet() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [shipping, setShipping] = useState<string | null>(null);
  const refresh = () => void qc.invalidateQueries({ queryKey: commerceKeys.all });
  const withdraw = async (id: string) => {
    const r = await buyerApi.cancelAftersale(id);
    if (r?.ok) {
      void message.success(t("commerce.as.done"));
      refresh();
    }
  };

  const columns: TableColumnsType<Aftersale> = [
    { title: t("commerce.orderNo"), dataIndex: "orderNo", width: 200 },
    {
      title: t("commerce.items"),
      key: "item",
      width: 200,
      render: (_: unknown, a) => `${a.itemName} ${skuLabel(a.specs)} × ${a.quantity}`,
    },
    { title: t("commerce.brand"), dataIndex: "brandName", width: 150, ellipsis: true },
    {
      title: t("commerce.as.apply"),
      dataIndex: "way",
      width: 120,
      render: (w: Aftersale["way"]) => t(`commerce.as.way.${w}`),
    },
    {
      title: t("commerce.as.amount"),
      dataIndex: "amount",
      width: 110,
      align: "right",
      render: (m: Aftersale["amount"]) => formatMoney(m),
    },
    {
      title: t("commerce.status"),
      dataIndex: "state",
      width: 150,
      render: (s: AfterSaleState) => <AftersaleStateTag state={s} t={t} />,
    },
    {
      title: t("commerce.as.reason"),
      key: "reason",
      width: 200,
      render: (_: unknown, a) => [a.reason, a.sellerReason].filter(Boolean).join(" / "),
    },
    // Shown once the brand agreed to the return: where to send the goods.
    {
      title: t("commerce.as.returnAddress"),
      dataIndex: "returnAddress",
      width: 220,
      render: (v: string | null) => v ?? "—",
    },
    {
      title: t("commerce.waybillNo"),
      key: "returnWaybill",
      width: 200,
      render: (_: unknown, a) => (a.returnWaybill ? `${a.returnCompanyName ?? ""} ${a.returnWaybill}` : "—"),
    },
    {
      title: t("commerce.createdAt"),
      dataIndex: "createdAt",
      width: 150,
      render: (v: string) => formatTime(v),
    },
    {
      title: t("commerce.actions"),
      key: "actions",
      width: 170,
      fixed: "right",
      render: (_: unknown, a) => (
        <Space size={0}>
          {a.state === "seller_agree" && (
            <Button type="link" size="small" onClick={() => setShipping(a.id)}>
              {t("commerce.as.shipBack")}
            </Button>
          )}
          {(a.state === "apply" || a.state === "seller_agree") && (
            <Popconfirm title={t("commerce.as.withdraw")} onConfirm={() => void withdraw(a.id)}>
              <Button type="link" size="small" danger>
                {t("commerce.as.withdraw")}
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  return (
    <>
      <ListPage<Aftersale>
        header={
          <PageHint
            id="sale.OnlineRefundSheet"
            title={t("commerce.page.OnlineRefundSheet")}
            description={t("commerce.hint.refunds")}
          />
        }
        rowKey="id"
        columns={columns}
        scrollX={1720}
        search={{
          select: {
            keys: [
              {
                value: "state",
                label: t("commerce.status"),
                options: AFTERSALE_STATES.map((s) => ({ value: s, label: t(`commerce.as.state.${s}`) })),
              },
            ],
          },
        }}
        query={(state) => {
          const q = { page: state.page, pageSize: state.pageSize, state: stateOf(one(state.values.selVal)) };
          return { queryKey: commerceKeys.aftersales("purchaser", q), queryFn: () => buyerApi.aftersales(q) };
        }}
      />
      {shipping && (
        <ShipBackDialog
          id={shipping}
          onClose={() => setShipping(null)}
          onDone={() => {
            setShipping(null);
            refresh();
          }}
        />
      )}
    </>
  );
}
