import { useQueryClient } from "@tanstack/react-query";
import { Button, Tag, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ONECARD_KINDS, type OcProduct, type OnecardKind } from "@tessera/contracts";
import { queryKeys } from "../../api/queryKeys";
import { ListPage } from "../../ui/list/ListPage";
import { formatMoney } from "../../ui/money";
import { PageHint } from "../../ui/PageHint";
import { ocKeys, ocSaleApi } from "./api";
import { BuyDialog } from "./BuyDialog";
import { validityText } from "./labels";
import { mallQuery } from "./query";

/**
 * `/sale/OneCardPurchase`: buy stored-value cards in bulk. Every brand's card products on sale in the
 * purchaser's currency, with kind and name filters; Buy pays from the SUP account (idempotent by a
 * request key made when the dialog opens). Unactivated cards can be returned later for a refund.
 */
export default function OneCardPurchase() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [buying, setBuying] = useState<OcProduct | null>(null);
  const columns: TableColumnsType<OcProduct> = [
    { title: t("onecard.bo.name"), dataIndex: "name", ellipsis: true },
    { title: t("onecard.bo.brand"), dataIndex: "branderName", width: 200, ellipsis: true },
    {
      title: t("onecard.bo.kindLabel"),
      dataIndex: "kind",
      width: 130,
      render: (k: OnecardKind) => <Tag>{t(`onecard.bo.kind.${k}`)}</Tag>,
    },
    {
      title: t("onecard.faceValue"),
      dataIndex: "faceValue",
      width: 120,
      align: "right",
      render: (m: OcProduct["faceValue"]) => formatMoney(m),
    },
    {
      title: t("onecard.bo.salePrice"),
      dataIndex: "salePrice",
      width: 120,
      align: "right",
      render: (m: OcProduct["salePrice"]) => formatMoney(m),
    },
    {
      title: t("onecard.bo.validity"),
      key: "validity",
      width: 190,
      render: (_: unknown, p) => validityText(t, p.validity),
    },
    { title: t("onecard.bo.stock"), dataIndex: "stock", width: 100, align: "right" },
    {
      title: t("onecard.bo.actions"),
      key: "actions",
      width: 100,
      fixed: "right",
      render: (_: unknown, p) => (
        <Button type="link" size="small" disabled={p.stock === 0} onClick={() => setBuying(p)}>
          {t("onecard.bo.buy")}
        </Button>
      ),
    },
  ];
  return (
    <>
      <ListPage<OcProduct>
        header={
          <PageHint
            id="sale.OneCardPurchase"
            title={t("onecard.bo.page.OneCardPurchase")}
            description={t("onecard.bo.hintMall")}
          />
        }
        rowKey="id"
        columns={columns}
        scrollX={1150}
        search={{
          input: { keys: [{ value: "keyword", label: t("onecard.bo.name") }] },
          select: {
            keys: [
              {
                value: "kind",
                label: t("onecard.bo.kindLabel"),
                options: ONECARD_KINDS.map((k) => ({ value: k, label: t(`onecard.bo.kind.${k}`) })),
              },
            ],
          },
        }}
        query={(state) => {
          const q = mallQuery(state);
          return { queryKey: ocKeys.mall(q), queryFn: () => ocSaleApi.mall(q) };
        }}
      />
      {buying && (
        <BuyDialog
          product={buying}
          onClose={() => setBuying(null)}
          onBought={() => {
            setBuying(null);
            void qc.invalidateQueries({ queryKey: ocKeys.all });
            void qc.invalidateQueries({ queryKey: queryKeys.userInfoAll });
          }}
        />
      )}
    </>
  );
}
