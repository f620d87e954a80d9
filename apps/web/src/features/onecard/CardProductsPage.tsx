import { useQueryClient } from "@tanstack/react-query";
import { App, Button, Space, Switch, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { OcProduct, OnecardKind } from "@tessera/contracts";
import { useUserInfo } from "../../api/common";
import { ListPage } from "../../ui/list/ListPage";
import { PageHint } from "../../ui/PageHint";
import { one } from "./query";
import { ocBrandApi, ocBrandKeys } from "./brandApi";
import { BatchesDrawer } from "./BatchesDrawer";
import { productColumns } from "./columns";
import { IssueDialog } from "./IssueDialog";
import { ProductFormDialog } from "./ProductFormDialog";

const onSaleOf = (v: string | undefined): "true" | "false" | undefined =>
  v === "true" || v === "false" ? v : undefined;

/**
 * The brand's card products of one kind (FaceValueCard, DiscountCard, GuideCard) or, with `onSaleOnly`
 * and no kind, every product on offer to purchasers (CardMall): filters by name and sale state;
 * create and edit in a dialog; put on or off sale; issue a batch; the batches and their cards (masked).
 */
export function CardProductsPage({
  kind,
  hintId,
  hintKey,
  onSaleOnly = false,
}: {
  kind?: OnecardKind;
  hintId: string;
  /** i18n key of the page hint's text. */
  hintKey: string;
  onSaleOnly?: boolean;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const currency = useUserInfo().data?.merchant?.currency ?? "CNY";
  const [editing, setEditing] = useState<OcProduct | null | undefined>(undefined);
  const [issuing, setIssuing] = useState<OcProduct | null>(null);
  const [batchesOf, setBatchesOf] = useState<OcProduct | null>(null);
  const refresh = () => void qc.invalidateQueries({ queryKey: ocBrandKeys.all });

  const toggle = async (p: OcProduct, onSale: boolean) => {
    const r = await ocBrandApi.setOnSale(p.id, onSale);
    if (r?.ok) {
      void message.success(onSale ? t("onecard.bo.putOnSale") : t("onecard.bo.takenOff"));
      refresh();
    }
  };

  const columns: TableColumnsType<OcProduct> = [
    ...productColumns(t, kind),
    {
      title: t("onecard.bo.onSale"),
      dataIndex: "onSale",
      width: 90,
      render: (v: boolean, p) => (
        <Switch size="small" checked={v} onChange={(on) => void toggle(p, on)} aria-label={t("onecard.bo.onSale")} />
      ),
    },
    {
      title: t("onecard.bo.actions"),
      key: "actions",
      width: 220,
      fixed: "right",
      render: (_: unknown, p) => (
        <Space size={0}>
          <Button
            type="link"
            size="small"
            href={`/CardCharterPage?id=${p.id}`}
            target="_blank"
            title={t("onecard.bo.charterHint")}
          >
            {t("onecard.bo.charter")}
          </Button>
          <Button type="link" size="small" onClick={() => setEditing(p)}>
            {t("onecard.bo.edit")}
          </Button>
          <Button type="link" size="small" onClick={() => setIssuing(p)}>
            {t("onecard.bo.issue")}
          </Button>
          <Button type="link" size="small" onClick={() => setBatchesOf(p)}>
            {t("onecard.bo.batches")}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <>
      <ListPage<OcProduct>
        header={<PageHint id={hintId} title={t("onecard.bo.products")} description={t(hintKey)} />}
        rowKey="id"
        columns={columns}
        scrollX={kind ? 1400 : 1520}
        search={{
          ...(kind && { add: { label: t("onecard.bo.newProduct"), onClick: () => setEditing(null) } }),
          input: { keys: [{ value: "keyword", label: t("onecard.bo.name") }] },
          ...(!onSaleOnly && {
            select: {
              keys: [
                {
                  value: "onSale",
                  label: t("onecard.bo.onSale"),
                  options: [
                    { value: "true", label: t("onecard.bo.onSale") },
                    { value: "false", label: t("onecard.bo.offSale") },
                  ],
                },
              ],
            },
          }),
        }}
        query={(state) => {
          const q = {
            page: state.page,
            pageSize: state.pageSize,
            kind,
            keyword: state.values.inpVal,
            onSale: onSaleOnly ? ("true" as const) : onSaleOf(one(state.values.selVal)),
          };
          return { queryKey: ocBrandKeys.products(q), queryFn: () => ocBrandApi.products(q) };
        }}
      />
      {editing !== undefined && (
        <ProductFormDialog
          key={editing?.id ?? "new"}
          kind={editing?.kind ?? kind ?? "face_value"}
          product={editing}
          currency={currency}
          onClose={() => setEditing(undefined)}
          onSaved={() => {
            setEditing(undefined);
            refresh();
          }}
        />
      )}
      {issuing && (
        <IssueDialog
          product={issuing}
          onClose={() => setIssuing(null)}
          onIssued={() => {
            setIssuing(null);
            refresh();
          }}
        />
      )}
      {batchesOf && <BatchesDrawer product={batchesOf} onClose={() => setBatchesOf(null)} />}
    </>
  );
}
