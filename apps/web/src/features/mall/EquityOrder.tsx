import { useQueryClient } from "@tanstack/react-query";
import { App, Button, Input, Modal, Tag, Typography, type TableColumnsType } from "antd";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { MALL_ORDER_STATES, type MallOrder } from "@tessera/contracts";
import { newRequestKey } from "../funds/api";
import { ListPage } from "../../ui/list/ListPage";
import { moneyTitle } from "../../ui/confirmMoney";
import { formatMoney } from "../../ui/money";
import { STATE_COLOURS } from "./orderStates";
import { filtersOf, mallApi, mallKeys } from "./api";
import { formatTime } from "../../ui/time";

/** `/sale/EquityOrder`: the mall's orders (codes masked), their delivery, and refunds (to the wallet payment or back onto the card). */
export default function EquityOrder() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [refunding, setRefunding] = useState<MallOrder | null>(null);
  const [reason, setReason] = useState("");
  // One key per refund dialog: a retried click refunds once.
  const refundKey = useRef("");
  const openRefund = (o: MallOrder) => {
    refundKey.current = newRequestKey();
    setRefunding(o);
  };
  const columns: TableColumnsType<MallOrder> = [
    { title: t("mall.orderNo"), dataIndex: "orderNo", width: 200 },
    {
      title: t("mall.bo.createdAt"),
      dataIndex: "createdAt",
      width: 170,
      render: (v: string) => formatTime(v, { seconds: true }),
    },
    { title: t("mall.bo.customer"), dataIndex: "customerPhone", width: 130 },
    {
      title: t("mall.bo.lines"),
      dataIndex: "lines",
      ellipsis: true,
      render: (l: MallOrder["lines"]) => l.map((x) => `${x.name} ×${x.quantity}`).join(", "),
    },
    {
      title: t("mall.amount"),
      dataIndex: "amount",
      width: 110,
      align: "right",
      render: (m: MallOrder["amount"]) => formatMoney(m),
    },
    {
      title: t("mall.payWith"),
      dataIndex: "payMethod",
      width: 90,
      render: (p: MallOrder["payMethod"]) => t(p === "card" ? "mall.card" : "mall.wallet"),
    },
    {
      title: t("mall.deliveries"),
      dataIndex: "deliveries",
      width: 220,
      render: (d: MallOrder["deliveries"]) => d.map((x) => x.cardNumber ?? x.account ?? x.name).join(", "),
    },
    {
      title: t("mall.stateLabel"),
      dataIndex: "state",
      width: 100,
      render: (s: MallOrder["state"]) => <Tag color={STATE_COLOURS[s]}>{t(`mall.state.${s}`)}</Tag>,
    },
    {
      title: t("mall.bo.actions"),
      key: "actions",
      width: 90,
      render: (_: unknown, r) =>
        r.state !== "refunded" && r.state !== "delivering" ? (
          <Button size="small" onClick={() => openRefund(r)}>
            {t("mall.bo.refund")}
          </Button>
        ) : null,
    },
  ];
  return (
    <>
      <ListPage<MallOrder>
        rowKey="id"
        columns={columns}
        scrollX={1400}
        search={{
          input: {
            keys: [
              { value: "orderNo", label: t("mall.orderNo") },
              { value: "phone", label: t("mall.bo.customer"), numeric: true },
            ],
          },
          select: {
            keys: [
              {
                value: "state",
                label: t("mall.stateLabel"),
                options: MALL_ORDER_STATES.map((s) => ({ value: s, label: t(`mall.state.${s}`) })),
              },
            ],
          },
        }}
        query={(state) => {
          const q = {
            page: state.page,
            pageSize: state.pageSize,
            ...filtersOf(state.values, ["orderNo", "phone"], ["state"]),
          };
          return { queryKey: mallKeys.list("orders", q), queryFn: () => mallApi.orders(q) };
        }}
      />
      <Modal
        open={refunding !== null}
        // The refund's own dialog is its confirmation (issue 37): the amount in the title, where it goes below.
        title={refunding ? moneyTitle(t("mall.bo.refund"), refunding.amount) : t("mall.bo.refund")}
        okText={t("mall.bo.refund")}
        okButtonProps={{ danger: true, disabled: !reason.trim(), "data-testid": "mall-refund-ok" }}
        onCancel={() => setRefunding(null)}
        onOk={() => {
          if (!refunding) return;
          void mallApi.refund(refunding.id, reason, refundKey.current).then((r) => {
            if (!r?.ok) {
              void message.error(r?.msg ?? "");
              return;
            }
            setRefunding(null);
            setReason("");
            void qc.invalidateQueries({ queryKey: mallKeys.all });
          });
        }}
      >
        {refunding && (
          <Typography.Paragraph>
            {t(refunding.payMethod === "card" ? "mall.bo.refundEffectCard" : "mall.bo.refundEffectWallet", {
              amount: formatMoney(refunding.amount),
              orderNo: refunding.orderNo,
            })}
          </Typography.Paragraph>
        )}
        <Input.TextArea
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          maxLength={200}
          placeholder={t("mall.bo.refundReason")}
          aria-label={t("mall.bo.refundReason")}
        />
      </Modal>
    </>
  );
}
