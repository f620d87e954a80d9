import type { TableColumnsType } from "antd";
import { useTranslation } from "react-i18next";
import type { Page, ResaleMerchandise } from "@tessera/contracts";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";
import { ListPage } from "../../ui/list/ListPage";
import type { ListState } from "../../ui/list/listQuery";
import { formatMoney } from "../../ui/money";
import { PageHint } from "../../ui/PageHint";
import { percent, useDictLabels } from "./labels";
import { formatTime } from "../../ui/time";

/** A row keyed by its goods (one row per goods bought). */
type Row = ResaleMerchandise & { key: string };

/** The URL's date range (local days with their offset) as the platform days the call filters on. */
function queryOf(s: ListState) {
  const [from, to] = s.values.date ?? [];
  return {
    page: s.page,
    pageSize: s.pageSize,
    keyword: s.values.inpVal,
    from: from?.slice(0, 10),
    to: to?.slice(0, 10),
  };
}

/**
 * `/business/ResaleGoods`: the goods this merchant bought codes of from other suppliers and may resell
 * (spec 01 §7 `resale/merchandises`): the goods as a purchaser sees it, how many codes were bought and
 * when last; filtered by goods name, code or id and by purchase days.
 */
export default function ResaleGoods() {
  const { t } = useTranslation();
  const labels = useDictLabels();
  const money = (amount: number, r: Row) => formatMoney({ amount, currency: r.goods.currency });
  const columns: TableColumnsType<Row> = [
    { title: t("catalog.field.id"), key: "id", width: 80, render: (_: unknown, r) => r.goods.id },
    { title: t("catalog.field.name"), key: "name", width: 200, render: (_: unknown, r) => r.goods.name },
    { title: t("catalog.resale.bought"), dataIndex: "bought", width: 110 },
    {
      title: t("catalog.resale.lastBoughtAt"),
      dataIndex: "lastBoughtAt",
      width: 170,
      render: (v: string) => formatTime(v),
    },
    { title: t("catalog.field.brand"), key: "brand", width: 130, render: (_: unknown, r) => r.goods.brandName },
    {
      title: t("catalog.field.supplier"),
      key: "supplier",
      width: 160,
      render: (_: unknown, r) => r.goods.supplierName,
    },
    {
      title: t("catalog.field.businessType"),
      key: "type",
      width: 110,
      render: (_: unknown, r) => labels.businessType(r.goods.businessType),
    },
    {
      title: t("catalog.field.faceValue"),
      key: "faceValue",
      width: 110,
      render: (_: unknown, r) => money(r.goods.faceValue, r),
    },
    { title: t("catalog.field.price"), key: "price", width: 110, render: (_: unknown, r) => money(r.goods.price, r) },
    {
      title: t("catalog.field.discount"),
      key: "discount",
      width: 90,
      render: (_: unknown, r) => percent(r.goods.discountBp),
    },
  ];
  return (
    <ListPage<Row>
      header={
        <PageHint
          id="business.ResaleGoods"
          title={t("catalog.hint.resaleTitle")}
          description={t("catalog.hint.resale")}
        />
      }
      rowKey="key"
      columns={columns}
      scrollX={1300}
      search={{
        input: { keys: [{ value: "keyword", label: t("catalog.field.keyword") }] },
        dateMode: "date",
        dateLabel: t("catalog.resale.boughtDays"),
      }}
      query={(s) => {
        const q = queryOf(s);
        return {
          queryKey: ["catalog", "resale", q],
          queryFn: async () => {
            const page = unwrap(
              await http.get<Page<ResaleMerchandise>>("/api/card-user/resale/merchandises", {
                query: q,
                overlay: false,
              }),
            );
            return { ...page, list: page.list.map((r) => ({ ...r, key: String(r.goods.id) })) };
          },
        };
      }}
    />
  );
}
