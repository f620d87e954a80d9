import { useQueryClient } from "@tanstack/react-query";
import { App, Button, Flex, Input, Modal, Popconfirm, Space, Tabs, Typography, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import {
  AFTERSALE_STATES,
  COMMERCE_ORDER_STATES,
  type Aftersale,
  type AfterSaleAction,
  type AfterSaleState,
  type CommerceOrder,
  type CommerceOrderState,
  type Shipment,
} from "@tessera/contracts";
import { ListPage } from "../../ui/list/ListPage";
import { moneyPopconfirm, moneyTitle } from "../../ui/confirmMoney";
import { formatMoney } from "../../ui/money";
import { PageHint } from "../../ui/PageHint";
import { brandApi, commerceKeys } from "./api";
import { AftersaleStateTag, OrderStateTag, skuLabel } from "./labels";
import { TrackingDrawer } from "./TrackingDrawer";
import { one } from "../onecard/query";
import { ShipDialog } from "./ShipDialog";
import { formatTime } from "../../ui/time";

const TABS = ["orders", "aftersales", "express"] as const;
type Tab = (typeof TABS)[number];
const pick = <T extends string>(all: readonly T[], v: string | undefined): T | undefined =>
  (all as readonly string[]).includes(v ?? "") ? (v as T) : undefined;

/**
 * `/business/OrderRelated`: the brand's orders (ship through the courier, tracking), after-sales requests
 * (`afterservice/pager`, `dispose`: agree, decline, goods received and refund, refuse the goods) and
 * express orders (`expressorder/pager`).
 */
export default function OrderRelated() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tab: Tab = pick(TABS, params.get("tab") ?? undefined) ?? "orders";
  return (
    <Flex vertical gap={8}>
      <Tabs
        activeKey={tab}
        onChange={(k) => setParams({ tab: k })}
        items={TABS.map((k) => ({ key: k, label: t(`commerce.tab.${k}`) }))}
      />
      {tab === "orders" && <Orders />}
      {tab === "aftersales" && <Aftersales />}
      {tab === "express" && <Express />}
    </Flex>
  );
}

function Orders() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [shipping, setShipping] = useState<CommerceOrder | null>(null);
  const [tracking, setTracking] = useState<string | null>(null);
  const columns: TableColumnsType<CommerceOrder> = [
    {
      title: t("commerce.orderNo"),
      dataIndex: "orderNo",
      width: 210,
      render: (v: string) => <Typography.Text copyable>{v}</Typography.Text>,
    },
    { title: t("commerce.purchaser"), dataIndex: "purchaserName", width: 150, ellipsis: true },
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
      title: t("commerce.status"),
      dataIndex: "state",
      width: 100,
      render: (s: CommerceOrderState) => <OrderStateTag state={s} t={t} />,
    },
    {
      title: t("commerce.consignee"),
      key: "consignee",
      width: 260,
      render: (_: unknown, o) =>
        o.consignee
          ? `${o.consignee.name} ${o.consignee.phone} ${o.consignee.regionNames} ${o.consignee.address}`
          : "—",
    },
    {
      title: t("commerce.waybillNo"),
      key: "waybill",
      width: 190,
      render: (_: unknown, o) => (o.shipment ? `${o.shipment.companyName} ${o.shipment.waybillNo}` : "—"),
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
      width: 150,
      fixed: "right",
      render: (_: unknown, o) => (
        <Space size={0}>
          {o.state === "to_ship" && o.kind === "physical" && (
            <Button type="link" size="small" onClick={() => setShipping(o)}>
              {t("commerce.ship")}
            </Button>
          )}
          {o.shipment && (
            <Button type="link" size="small" onClick={() => setTracking(o.id)}>
              {t("commerce.tracking")}
            </Button>
          )}
        </Space>
      ),
    },
  ];
  return (
    <>
      <ListPage<CommerceOrder>
        header={
          <PageHint
            id="business.OrderRelated"
            title={t("commerce.page.OrderRelated")}
            description={t("commerce.hint.brandOrders")}
          />
        }
        rowKey="id"
        columns={columns}
        scrollX={1560}
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
            pagesize: state.pageSize,
            orderNo: state.values.inpVal,
            state: pick(COMMERCE_ORDER_STATES, one(state.values.selVal)),
          };
          return { queryKey: commerceKeys.orders("brand", q), queryFn: () => brandApi.orders(q) };
        }}
      />
      {shipping && (
        <ShipDialog
          order={shipping}
          onClose={() => setShipping(null)}
          onShipped={() => {
            setShipping(null);
            void qc.invalidateQueries({ queryKey: commerceKeys.all });
          }}
        />
      )}
      {tracking && <TrackingDrawer orderId={tracking} onClose={() => setTracking(null)} />}
    </>
  );
}

function Aftersales() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [asking, setAsking] = useState<{ case: Aftersale; action: AfterSaleAction } | null>(null);
  // A refund's confirmation says how much goes back to whom (issue 37).
  const said = (a: Aftersale) => ({ amount: formatMoney(a.amount), purchaser: a.purchaserName, orderNo: a.orderNo });
  const [reason, setReason] = useState("");
  const dispose = async (id: string, action: AfterSaleAction, why?: string) => {
    // Agreeing to a return names where the goods go back (the buyer is shown it); the other answers give a reason.
    const r =
      action === "agree" ? await brandApi.dispose(id, action, undefined, why) : await brandApi.dispose(id, action, why);
    if (r?.ok) {
      void message.success(t("commerce.as.done"));
      setAsking(null);
      setReason("");
      void qc.invalidateQueries({ queryKey: commerceKeys.all });
    }
  };
  const columns: TableColumnsType<Aftersale> = [
    { title: t("commerce.orderNo"), dataIndex: "orderNo", width: 200 },
    { title: t("commerce.purchaser"), dataIndex: "purchaserName", width: 150, ellipsis: true },
    {
      title: t("commerce.items"),
      key: "item",
      width: 200,
      render: (_: unknown, a) => `${a.itemName} ${skuLabel(a.specs)} × ${a.quantity}`,
    },
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
    { title: t("commerce.as.reason"), dataIndex: "reason", width: 180 },
    {
      title: t("commerce.waybillNo"),
      key: "ret",
      width: 180,
      render: (_: unknown, a) => (a.returnWaybill ? `${a.returnCompanyName ?? ""} ${a.returnWaybill}` : "—"),
    },
    {
      title: t("commerce.actions"),
      key: "actions",
      width: 220,
      fixed: "right",
      render: (_: unknown, a) => (
        <Space size={0} wrap>
          {a.state === "apply" && (
            <>
              {a.way === "return_and_refund" ? (
                <Button type="link" size="small" onClick={() => setAsking({ case: a, action: "agree" })}>
                  {t("commerce.as.agree")}
                </Button>
              ) : (
                <Popconfirm
                  {...moneyPopconfirm({
                    action: t("commerce.as.agree"),
                    amount: a.amount,
                    effect: t("commerce.as.agreeRefundEffect", said(a)),
                    danger: true,
                  })}
                  onConfirm={() => void dispose(a.id, "agree")}
                >
                  <Button type="link" size="small">
                    {t("commerce.as.agree")}
                  </Button>
                </Popconfirm>
              )}
              <Button type="link" size="small" danger onClick={() => setAsking({ case: a, action: "disagree" })}>
                {t("commerce.as.disagree")}
              </Button>
            </>
          )}
          {a.state === "buyer_delivery" && (
            <>
              <Popconfirm
                {...moneyPopconfirm({
                  action: t("commerce.as.receive"),
                  amount: a.amount,
                  effect: t("commerce.as.receiveEffect", said(a)),
                  danger: true,
                })}
                onConfirm={() => void dispose(a.id, "receive")}
              >
                <Button type="link" size="small">
                  {t("commerce.as.receive")}
                </Button>
              </Popconfirm>
              <Button type="link" size="small" danger onClick={() => setAsking({ case: a, action: "refuse" })}>
                {t("commerce.as.refuse")}
              </Button>
            </>
          )}
        </Space>
      ),
    },
  ];
  return (
    <>
      <ListPage<Aftersale>
        rowKey="id"
        columns={columns}
        scrollX={1520}
        search={{
          input: { keys: [{ value: "orderNo", label: t("commerce.orderNo") }] },
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
          const q = {
            page: state.page,
            pagesize: state.pageSize,
            orderNo: state.values.inpVal,
            state: pick(AFTERSALE_STATES, one(state.values.selVal)),
          };
          return { queryKey: commerceKeys.aftersales("brand", q), queryFn: () => brandApi.aftersales(q) };
        }}
      />
      {asking && (
        <Modal
          open
          // Agreeing to a return promises its refund: the title says how much, the text when it is paid.
          title={
            asking.action === "agree"
              ? moneyTitle(t("commerce.as.agree"), asking.case.amount)
              : t(`commerce.as.${asking.action}`)
          }
          onCancel={() => setAsking(null)}
          onOk={() => void dispose(asking.case.id, asking.action, reason)}
          okButtonProps={{ disabled: !reason.trim() }}
          destroyOnHidden
        >
          {asking.action === "agree" && (
            <Typography.Paragraph>{t("commerce.as.agreeReturnEffect", said(asking.case))}</Typography.Paragraph>
          )}
          <Input.TextArea
            rows={3}
            maxLength={200}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            placeholder={t(asking.action === "agree" ? "commerce.as.returnAddressPrompt" : "commerce.as.reasonPrompt")}
            aria-label={t(asking.action === "agree" ? "commerce.as.returnAddress" : "commerce.as.reasonPrompt")}
          />
        </Modal>
      )}
    </>
  );
}

function Express() {
  const { t } = useTranslation();
  const [tracking, setTracking] = useState<string | null>(null);
  const columns: TableColumnsType<Shipment> = [
    { title: t("commerce.orderNo"), dataIndex: "orderNo", width: 200 },
    { title: t("commerce.company"), dataIndex: "companyName", width: 140 },
    { title: t("commerce.waybillNo"), dataIndex: "waybillNo", width: 180 },
    {
      title: t("commerce.tracking"),
      dataIndex: "state",
      width: 120,
      render: (s: number | null) => (s === null ? t("commerce.noEvents") : t(`commerce.track.${s}`)),
    },
    {
      title: t("commerce.signedAt"),
      dataIndex: "signedAt",
      width: 150,
      render: (v: string | null) => (v ? formatTime(v) : "—"),
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
      width: 100,
      render: (_: unknown, s) => (
        <Button type="link" size="small" onClick={() => setTracking(s.orderId)}>
          {t("commerce.tracking")}
        </Button>
      ),
    },
  ];
  return (
    <>
      <ListPage<Shipment>
        rowKey="id"
        columns={columns}
        search={{ input: { keys: [{ value: "waybillNo", label: t("commerce.waybillNo") }] } }}
        query={(state) => {
          const q = { page: state.page, pagesize: state.pageSize, waybillNo: state.values.inpVal };
          return { queryKey: commerceKeys.shipments(q), queryFn: () => brandApi.shipments(q) };
        }}
      />
      {tracking && <TrackingDrawer orderId={tracking} onClose={() => setTracking(null)} />}
    </>
  );
}
