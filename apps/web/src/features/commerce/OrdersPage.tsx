import { useQueryClient } from "@tanstack/react-query";
import { App, Button, Popconfirm, Space, Typography, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import {
  COMMERCE_ORDER_STATES,
  type CommerceOrder,
  type CommerceOrderState,
  type CommodityKind,
} from "@tessera/contracts";
import { confirmMoney } from "../../ui/confirmMoney";
import { ListPage } from "../../ui/list/ListPage";
import { formatMoney } from "../../ui/money";
import { PageHint } from "../../ui/PageHint";
import { one } from "../onecard/query";
import { AftersaleDialog } from "./AftersaleDialog";
import { buyerApi, commerceKeys } from "./api";
import { OrderStateTag, skuLabel } from "./labels";
import { TrackingDrawer } from "./TrackingDrawer";
import { formatDay, formatTime } from "../../ui/time";

const stateOf = (v: string | undefined): CommerceOrderState | undefined =>
  (COMMERCE_ORDER_STATES as readonly string[]).includes(v ?? "") ? (v as CommerceOrderState) : undefined;

/** The purchaser's orders of one kind (RealGoodsOrders, VirtualOrders): pay, cancel, tracking, confirm receipt, after-sales. */
export function OrdersPage({ kind, hintId, titleKey }: { kind: CommodityKind; hintId: string; titleKey: string }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const qc = useQueryClient();
  const [tracking, setTracking] = useState<string | null>(null);
  const [afterSale, setAfterSale] = useState<CommerceOrder | null>(null);
  const refresh = () => void qc.invalidateQueries({ queryKey: commerceKeys.all });
  const act = async (call: Promise<{ ok: boolean } | undefined>, done: string) => {
    const r = await call;
    if (r?.ok) {
      void message.success(done);
      refresh();
    }
  };

  // Paying asks first, with the amount and where the money goes (issue 37).
  const pay = (o: CommerceOrder) =>
    confirmMoney(modal, {
      action: t("commerce.pay"),
      amount: o.payAmount,
      effect: t("commerce.payEffect", { amount: formatMoney(o.payAmount), brand: o.brandName, orderNo: o.orderNo }),
      testId: "pay-confirm",
      onOk: () => act(buyerApi.pay(o.id), t("commerce.paid")),
    });

  const columns: TableColumnsType<CommerceOrder> = [
    {
      title: t("commerce.orderNo"),
      dataIndex: "orderNo",
      width: 210,
      render: (v: string) => <Typography.Text copyable>{v}</Typography.Text>,
    },
    { title: t("commerce.brand"), dataIndex: "brandName", width: 150, ellipsis: true },
    {
      title: t("commerce.items"),
      key: "items",
      width: 240,
      render: (_: unknown, o) =>
        o.items.map((i) => <div key={i.id}>{`${i.name} ${skuLabel(i.specs)} × ${i.quantity}`}</div>),
    },
    {
      title: t("commerce.payAmount"),
      dataIndex: "payAmount",
      width: 110,
      align: "right",
      render: (m: CommerceOrder["payAmount"]) => formatMoney(m),
    },
    {
      title: t("commerce.refunded"),
      dataIndex: "refundedAmount",
      width: 100,
      align: "right",
      render: (m: CommerceOrder["refundedAmount"]) => (m.amount ? formatMoney(m) : "—"),
    },
    {
      title: t("commerce.status"),
      dataIndex: "state",
      width: 110,
      render: (s: CommerceOrderState) => <OrderStateTag state={s} t={t} />,
    },
    ...(kind === "physical"
      ? [
          {
            title: t("commerce.consignee"),
            key: "consignee",
            width: 220,
            render: (_: unknown, o: CommerceOrder) =>
              o.consignee ? `${o.consignee.name} ${o.consignee.regionNames} ${o.consignee.address}` : "—",
          },
        ]
      : []),
    {
      title: t("commerce.createdAt"),
      dataIndex: "createdAt",
      width: 150,
      render: (v: string) => formatTime(v),
    },
    {
      title: t("commerce.actions"),
      key: "actions",
      width: 260,
      fixed: "right",
      render: (_: unknown, o) => (
        <Space size={0} wrap>
          {o.state === "to_pay" && (
            <Button type="link" size="small" onClick={() => pay(o)}>
              {t("commerce.pay")}
            </Button>
          )}
          {(o.state === "to_pay" || o.state === "to_ship") && (
            <Popconfirm
              title={t("commerce.cancelConfirm")}
              onConfirm={() => void act(buyerApi.cancel(o.id, ""), t("commerce.cancelled"))}
            >
              <Button type="link" size="small" danger>
                {t("commerce.cancel")}
              </Button>
            </Popconfirm>
          )}
          {o.shipment && (
            <Button type="link" size="small" onClick={() => setTracking(o.id)}>
              {t("commerce.tracking")}
            </Button>
          )}
          {(o.state === "shipped" || o.state === "received") && (
            <Popconfirm
              title={t("commerce.confirmAsk")}
              description={
                o.autoConfirmAt ? t("commerce.autoConfirm", { date: formatDay(o.autoConfirmAt) }) : undefined
              }
              onConfirm={() => void act(buyerApi.confirm(o.id), t("commerce.confirmed"))}
            >
              <Button type="link" size="small">
                {t("commerce.confirm")}
              </Button>
            </Popconfirm>
          )}
          {o.state !== "to_pay" && o.state !== "closed" && (
            <Button type="link" size="small" onClick={() => setAfterSale(o)}>
              {t("commerce.as.apply")}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <>
      <ListPage<CommerceOrder>
        header={<PageHint id={hintId} title={t(titleKey)} description={t("commerce.hint.orders")} />}
        rowKey="id"
        columns={columns}
        scrollX={1500}
        search={{
          input: { keys: [{ value: "orderNo", label: t("commerce.orderNo") }] },
          select: {
            keys: [
              {
                value: "state",
                label: t("commerce.status"),
                options: COMMERCE_ORDER_STATES.map((s) => ({ value: s, label: t(`commerce.state.${s}`) })),
              },
            ],
          },
        }}
        query={(state) => {
          const q = {
            page: state.page,
            pageSize: state.pageSize,
            kind,
            orderNo: state.values.inpVal,
            state: stateOf(one(state.values.selVal)),
          };
          return { queryKey: commerceKeys.orders("purchaser", q), queryFn: () => buyerApi.orders(q) };
        }}
      />
      {tracking && <TrackingDrawer orderId={tracking} onClose={() => setTracking(null)} />}
      {afterSale && (
        <AftersaleDialog
          order={afterSale}
          onClose={() => setAfterSale(null)}
          onDone={() => {
            setAfterSale(null);
            refresh();
          }}
        />
      )}
    </>
  );
}
