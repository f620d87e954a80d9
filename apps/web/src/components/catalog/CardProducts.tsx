import { Tag, type TableColumnsType } from "antd";
import { useTranslation } from "react-i18next";
import { GOODS_STATES, type CardProductKind, type Goods, type Page } from "@tessera/contracts";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";
import { percent, useDictLabels } from "../../areas/business/catalog/labels";
import { ListPage } from "../list/ListPage";
import type { ListState } from "../list/listQuery";
import { formatMoney } from "../money";

const STATE_COLOR = { available: "green", disabled: "orange", void: "default" } as const;

/**
 * A brand's card products of one kind (`card-brander/cardProducts`): face value cards sold at face
 * value, or discount cards sold below it; filtered by name, code or ID and by state, paged. Inside a
 * provider's brand context the call carries the brand token.
 */
export function CardProducts({ kind, header }: { kind: CardProductKind; header: React.ReactNode }) {
  const { t } = useTranslation();
  const labels = useDictLabels();
  const money = (amount: number, g: Goods) => formatMoney({ amount, currency: g.currency });
  const columns: TableColumnsType<Goods> = [
    { title: t("catalog.field.id"), dataIndex: "id", width: 80 },
    { title: t("catalog.field.name"), dataIndex: "name", width: 200 },
    { title: t("catalog.field.brand"), dataIndex: "brandName", width: 120 },
    { title: t("catalog.field.businessType"), dataIndex: "businessType", width: 110, render: (v: Goods["businessType"]) => labels.businessType(v) },
    { title: t("catalog.field.faceValue"), dataIndex: "faceValue", width: 110, render: (v: number, g) => money(v, g) },
    { title: t("catalog.field.price"), dataIndex: "price", width: 110, render: (v: number, g) => money(v, g) },
    { title: t("catalog.field.discount"), dataIndex: "discountBp", width: 90, render: (v: number) => percent(v) },
    { title: t("catalog.field.stock"), dataIndex: "stock", width: 100 },
    { title: t("catalog.field.sold"), dataIndex: "sold", width: 90 },
    { title: t("catalog.field.state"), dataIndex: "state", width: 90, render: (v: Goods["state"]) => <Tag color={STATE_COLOR[v]}>{t(`catalog.state.${v}`)}</Tag> },
  ];
  const queryOf = (s: ListState) => ({ kind, page: s.page, pageSize: s.pageSize, keyword: s.values.inpVal, state: typeof s.values.selVal === "string" ? s.values.selVal : undefined });
  return (
    <ListPage<Goods>
      header={header}
      rowKey="id"
      columns={columns}
      search={{
        input: { keys: [{ value: "keyword", label: t("catalog.field.keyword") }] },
        select: { keys: [{ value: "state", label: t("catalog.field.state"), options: GOODS_STATES.map((s) => ({ value: s, label: t(`catalog.state.${s}`) })) }] },
      }}
      query={(s) => {
        const q = queryOf(s);
        return { queryKey: ["catalog", "cardProducts", q], queryFn: async () => unwrap(await http.get<Page<Goods>>("/api/card-brander/cardProducts", { query: q, overlay: false })) };
      }}
    />
  );
}
