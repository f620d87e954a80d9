import { useQueryClient } from "@tanstack/react-query";
import { App, Button, Space, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { OcSale } from "@tessera/contracts";
import { ListPage } from "../../ui/list/ListPage";
import { formatMoney } from "../../ui/money";
import { newRequestKey, ocKeys, ocSaleApi } from "./api";
import { time } from "./labels";
import { useConfirmActivation } from "./useConfirmActivation";

/**
 * `/sale/BuyRecord`: the purchaser's card purchases (product, brand, quantity, unit price, amount paid
 * from SUP, cards returned), with the purchase's cards and "activate all" (every sold card of the
 * purchase, all or nothing).
 */
export default function BuyRecord() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [busy, setBusy] = useState<string | null>(null);

  const confirmActivation = useConfirmActivation();
  // Asks with the amount and its effect first (issue 37); one request key per question.
  const activateAll = async (s: OcSale) => {
    setBusy(s.id);
    try {
      await confirmActivation({ saleId: s.id }, newRequestKey(`ocsale${s.id}`), (r) => {
        void message.success(t("onecard.bo.activated", { count: r.count }));
        void qc.invalidateQueries({ queryKey: ocKeys.all });
      });
    } finally {
      setBusy(null);
    }
  };

  const columns: TableColumnsType<OcSale> = [
    { title: t("onecard.bo.saleNo"), dataIndex: "id", width: 100 },
    { title: t("onecard.bo.createdAt"), dataIndex: "createdAt", width: 160, render: time },
    { title: t("onecard.bo.name"), dataIndex: "productName", ellipsis: true },
    { title: t("onecard.bo.brand"), dataIndex: "branderName", width: 200, ellipsis: true },
    {
      title: t("onecard.faceValue"),
      dataIndex: "faceValue",
      width: 110,
      align: "right",
      render: (m: OcSale["faceValue"]) => formatMoney(m),
    },
    {
      title: t("onecard.bo.unitPrice"),
      dataIndex: "unitPrice",
      width: 110,
      align: "right",
      render: (m: OcSale["unitPrice"]) => formatMoney(m),
    },
    { title: t("onecard.bo.quantity"), dataIndex: "quantity", width: 90, align: "right" },
    {
      title: t("onecard.bo.amount"),
      dataIndex: "amount",
      width: 130,
      align: "right",
      render: (m: OcSale["amount"]) => formatMoney(m),
    },
    { title: t("onecard.bo.returned"), dataIndex: "returned", width: 90, align: "right" },
    {
      title: t("onecard.bo.actions"),
      key: "actions",
      width: 200,
      fixed: "right",
      render: (_: unknown, s) => (
        <Space size={0}>
          <Button
            type="link"
            size="small"
            onClick={() => void navigate(`../OnlineCardAccount?saleId=${s.id}`, { relative: "path" })}
          >
            {t("onecard.bo.cards")}
          </Button>
          <Button type="link" size="small" loading={busy === s.id} onClick={() => void activateAll(s)}>
            {t("onecard.bo.activateAll")}
          </Button>
        </Space>
      ),
    },
  ];
  return (
    <ListPage<OcSale>
      rowKey="id"
      columns={columns}
      scrollX={1400}
      search={{}}
      query={(state) => {
        const q = { page: state.page, pageSize: state.pageSize };
        return { queryKey: ocKeys.sales(q), queryFn: () => ocSaleApi.sales(q) };
      }}
    />
  );
}
