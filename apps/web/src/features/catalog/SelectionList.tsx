import { useQuery } from "@tanstack/react-query";
import { Button, Flex, Image, type TableColumnsType } from "antd";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { EQUITY_TYPES, INVOICE_TYPES, type Merchandise, type SelectionType } from "@tessera/contracts";
import { ListPage } from "../../ui/list/ListPage";
import type { ListState } from "../../ui/list/listQuery";
import { formatMoney } from "../../ui/money";
import { PageHint } from "../../ui/PageHint";
import { percent, useDictLabels } from "./labels";
import { selectionApi, selectionKeys } from "./selectionApi";
import { GoodsDetailDrawer } from "./GoodsDetailDrawer";

function one(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/** Search values → the merchandises query. selKey picks the filter, selKeyT the brand or the sort. */
function queryOf(type: SelectionType, state: ListState) {
  const v = state.values;
  const filter = one(v.selVal);
  return {
    type,
    page: state.page,
    pageSize: state.pageSize,
    keyword: v.inpVal,
    ...(filter && { [v.selKey ?? "brandId"]: filter }),
    sort: one(v.selValT) ?? "recommend",
  };
}

/**
 * One goods-selection list (spec 01 §2 screen 10): goods on sale of a type, filtered by brand,
 * keyword, equity type, face value and invoice type, sorted by recommendation or sales index, with a
 * detail view.
 */
export function SelectionList({ type, extra }: { type: SelectionType; extra?: ReactNode }) {
  const { t } = useTranslation();
  const labels = useDictLabels();
  const [detail, setDetail] = useState<number | null>(null);
  const { data: filters } = useQuery({
    queryKey: selectionKeys.filters(type),
    queryFn: () => selectionApi.filters(type),
  });
  const money = (amount: number, g: Merchandise) => formatMoney({ amount, currency: g.currency });

  const columns: TableColumnsType<Merchandise> = [
    {
      title: t("catalog.field.images"),
      dataIndex: "images",
      width: 80,
      render: (imgs: Merchandise["images"], g) =>
        imgs[0] ? (
          <Image
            src={imgs[0].thumbUrl}
            width={48}
            height={48}
            style={{ objectFit: "cover" }}
            preview={false}
            alt={g.name}
          />
        ) : null,
    },
    { title: t("catalog.field.id"), dataIndex: "id", width: 80 },
    { title: t("catalog.field.name"), dataIndex: "name", width: 220 },
    { title: t("catalog.field.brand"), dataIndex: "brandName", width: 120 },
    { title: t("catalog.field.stock"), dataIndex: "stock", width: 90 },
    {
      title: t("catalog.field.equityType"),
      dataIndex: "equityType",
      width: 100,
      render: (v: string) => t(`catalog.equity.${v}`),
    },
    { title: t("catalog.field.faceValue"), dataIndex: "faceValue", width: 110, render: (v: number, g) => money(v, g) },
    { title: t("catalog.field.price"), dataIndex: "price", width: 110, render: (v: number, g) => money(v, g) },
    { title: t("catalog.field.discount"), dataIndex: "discountBp", width: 90, render: (v: number) => percent(v) },
    {
      title: t("catalog.field.invoiceType"),
      dataIndex: "invoiceType",
      width: 170,
      render: (v: Merchandise["invoiceType"]) => labels.invoiceType(v),
    },
    { title: t("catalog.field.supplier"), dataIndex: "supplierName", width: 150 },
    { title: t("catalog.field.recommendationIndex"), dataIndex: "recommendationIndex", width: 110 },
    { title: t("catalog.field.salesIndex"), dataIndex: "salesIndex", width: 100 },
    {
      title: t("catalog.field.actions"),
      key: "actions",
      width: 100,
      fixed: "right",
      render: (_: unknown, g) => (
        <Button type="link" size="small" onClick={() => setDetail(g.id)}>
          {t("catalog.action.detail")}
        </Button>
      ),
    },
  ];

  return (
    <>
      <ListPage<Merchandise>
        header={
          <Flex vertical gap={16}>
            <PageHint
              id={`sale.selection.${type}`}
              title={t("catalog.hint.selectionTitle")}
              description={t("catalog.hint.selection")}
            />
            {extra}
          </Flex>
        }
        rowKey="id"
        columns={columns}
        scrollX={1700}
        search={{
          input: { keys: [{ value: "keyword", label: t("catalog.field.selectionKeyword") }] },
          select: {
            keys: [
              {
                value: "brandId",
                label: t("catalog.field.brand"),
                options: (filters?.brands ?? []).map((b) => ({ value: String(b.id), label: b.name })),
              },
              {
                value: "equityType",
                label: t("catalog.field.equityType"),
                options: EQUITY_TYPES.map((e) => ({ value: e, label: t(`catalog.equity.${e}`) })),
              },
              {
                value: "faceValue",
                label: t("catalog.field.faceValue"),
                options: (filters?.faceValues ?? []).map((f) => ({ value: String(f), label: (f / 100).toFixed(2) })),
              },
              {
                value: "invoiceType",
                label: t("catalog.field.invoiceType"),
                options: INVOICE_TYPES.map((i) => ({ value: i, label: labels.invoiceType(i) })),
              },
            ],
          },
          selectT: {
            keys: [
              {
                value: "sort",
                label: t("catalog.field.sort"),
                options: [
                  { value: "recommend", label: t("catalog.sort.recommend") },
                  { value: "sales", label: t("catalog.sort.sales") },
                ],
              },
            ],
          },
        }}
        query={(state) => {
          const q = queryOf(type, state);
          return { queryKey: selectionKeys.list(q), queryFn: () => selectionApi.list(q) };
        }}
      />
      <GoodsDetailDrawer id={detail} onClose={() => setDetail(null)} />
    </>
  );
}
