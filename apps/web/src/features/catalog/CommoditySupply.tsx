import { useQuery } from "@tanstack/react-query";
import { Tag, Tooltip, type TableColumnsType } from "antd";
import { useTranslation } from "react-i18next";
import { BUSINESS_TYPES, GOODS_STATES, type Goods, type Page } from "@tessera/contracts";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";
import { useSuppliedGoodsColumns } from "./supplyColumns";
import { ListPage } from "../../ui/list/ListPage";
import type { ListState } from "../../ui/list/listQuery";
import { PageHint } from "../../ui/PageHint";
import { catalogApi, catalogKeys } from "./api";
import { useDictLabels } from "./labels";

function queryOf(s: ListState) {
  const sel = typeof s.values.selVal === "string" ? s.values.selVal : undefined;
  const brandId = typeof s.values.selValT === "string" ? s.values.selValT : undefined;
  return {
    page: s.page,
    pageSize: s.pageSize,
    keyword: s.values.inpVal,
    ...(sel && { [s.values.selKey ?? "state"]: sel }),
    brandId,
  };
}

/**
 * `/business/CommoditySupply`: how each supplied goods stands (spec 01 §3 Supplied goods, §7
 * `insupply/merchandises`): the supply terms beside the code figures that move stock — available,
 * sold, voided by the supplier and expired unsold — and whether stock is under its low-stock threshold.
 */
export default function CommoditySupply() {
  const { t } = useTranslation();
  const labels = useDictLabels();
  const { data: brander } = useQuery({ queryKey: catalogKeys.brander, queryFn: catalogApi.brander });
  const figures: TableColumnsType<Goods> = [
    {
      title: t("catalog.field.lowStockThreshold"),
      dataIndex: "lowStockThreshold",
      width: 120,
      render: (v: number, g) =>
        v > 0 && g.stock < v ? (
          <Tooltip title={t("catalog.supplyFigures.lowHint", { threshold: v })}>
            <Tag color="red">{t("catalog.supplyFigures.low", { threshold: v })}</Tag>
          </Tooltip>
        ) : (
          v || "-"
        ),
    },
    { title: t("catalog.field.sold"), dataIndex: "sold", width: 90 },
    { title: t("catalog.field.voided"), dataIndex: "voided", width: 90 },
    { title: t("catalog.field.expired"), dataIndex: "expired", width: 90 },
  ];
  const columns = useSuppliedGoodsColumns(figures);
  return (
    <ListPage<Goods>
      header={
        <PageHint
          id="business.CommoditySupply"
          title={t("catalog.hint.commoditySupplyTitle")}
          description={t("catalog.hint.commoditySupply")}
        />
      }
      rowKey="id"
      columns={columns}
      scrollX={2100}
      search={{
        input: { keys: [{ value: "keyword", label: t("catalog.field.keyword") }] },
        select: {
          keys: [
            {
              value: "state",
              label: t("catalog.field.state"),
              options: GOODS_STATES.map((s) => ({ value: s, label: t(`catalog.state.${s}`) })),
            },
            {
              value: "businessType",
              label: t("catalog.field.businessType"),
              options: BUSINESS_TYPES.map((b) => ({ value: b, label: labels.businessType(b) })),
            },
          ],
        },
        selectT: {
          keys: [
            {
              value: "brandId",
              label: t("catalog.field.brand"),
              options: (brander?.brands ?? []).map((b) => ({ value: String(b.id), label: b.name })),
            },
          ],
        },
      }}
      query={(s) => {
        const q = queryOf(s);
        return {
          queryKey: ["catalog", "commoditySupply", q],
          queryFn: async () =>
            unwrap(await http.get<Page<Goods>>("/api/card-user/insupply/merchandises", { query: q, overlay: false })),
        };
      }}
    />
  );
}
