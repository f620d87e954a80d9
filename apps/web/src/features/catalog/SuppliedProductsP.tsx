import { useQuery } from "@tanstack/react-query";
import { Empty, Typography } from "antd";
import { useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { BUSINESS_TYPES, GOODS_STATES, type Goods, type Page } from "@tessera/contracts";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";
import { useSuppliedGoodsColumns } from "./supplyColumns";
import { ListPage } from "../../ui/list/ListPage";
import type { ListState } from "../../ui/list/listQuery";
import { PageHint } from "../../ui/PageHint";
import { useDictLabels } from "./labels";
import { servedQuery } from "../onboarding/api";

const EMPTY: Page<Goods> = { list: [], total: 0, page: 1, pageSize: 20 };

/**
 * `/providers/SuppliedProductsP`: the supplied goods of a merchant this provider serves (spec 01 §3
 * Supplied goods; `card-servicer/insupply/merchandises`), one served merchant at a time (the first by
 * default), with the supplier's own filters. The server answers only while the binding is active.
 */
export default function SuppliedProductsP() {
  const { t } = useTranslation();
  const labels = useDictLabels();
  const columns = useSuppliedGoodsColumns([{ title: t("catalog.field.sold"), dataIndex: "sold", width: 90 }]);
  const { data: served, isFetched } = useQuery(servedQuery({ page: 1, pageSize: 1000 }));
  const merchants = served?.list ?? [];
  const merchantOf = (s: ListState) =>
    typeof s.values.selValT === "string" ? s.values.selValT : merchants[0]?.merchantId;
  const queryOf = (s: ListState) => {
    const sel = typeof s.values.selVal === "string" ? s.values.selVal : undefined;
    return {
      merchantId: merchantOf(s),
      page: s.page,
      pageSize: s.pageSize,
      keyword: s.values.inpVal,
      ...(sel && { [s.values.selKey ?? "businessType"]: sel }),
    };
  };
  const hint = (
    <PageHint
      id="providers.SuppliedProductsP"
      title={t("catalog.hint.servedGoodsTitle")}
      description={t("catalog.hint.servedGoods")}
    />
  );
  const [params] = useSearchParams();
  const shownId = params.get("selValT") ?? merchants[0]?.merchantId;
  const shown = merchants.find((m) => m.merchantId === shownId);
  if (isFetched && merchants.length === 0) {
    return (
      <>
        {hint}
        <Empty style={{ marginTop: 48 }} description={t("catalog.servedGoods.none")} />
      </>
    );
  }
  return (
    <ListPage<Goods>
      header={
        <>
          {hint}
          {shown && (
            <Typography.Text data-testid="served-merchant">
              {t("catalog.servedGoods.showing", { name: shown.merchantName, id: shown.merchantId })}
            </Typography.Text>
          )}
        </>
      }
      rowKey="id"
      columns={columns}
      scrollX={2000}
      search={{
        input: { keys: [{ value: "keyword", label: t("catalog.field.keyword") }] },
        select: {
          keys: [
            {
              value: "businessType",
              label: t("catalog.field.businessType"),
              options: BUSINESS_TYPES.map((b) => ({ value: b, label: labels.businessType(b) })),
            },
            {
              value: "state",
              label: t("catalog.field.state"),
              options: GOODS_STATES.map((s) => ({ value: s, label: t(`catalog.state.${s}`) })),
            },
          ],
        },
        selectT: {
          keys: [
            {
              value: "merchantId",
              label: t("catalog.servedGoods.merchant"),
              options: merchants.map((m) => ({ value: m.merchantId, label: `${m.merchantName} (${m.merchantId})` })),
            },
          ],
        },
      }}
      query={(s) => {
        const q = queryOf(s);
        return {
          queryKey: ["catalog", "servedGoods", q],
          queryFn: async () =>
            q.merchantId
              ? unwrap(
                  await http.get<Page<Goods>>("/api/card-servicer/insupply/merchandises", { query: q, overlay: false }),
                )
              : EMPTY,
        };
      }}
    />
  );
}
