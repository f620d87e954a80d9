import { Tag, type TableColumnsType } from "antd";
import { useTranslation } from "react-i18next";
import type { CardProductKind, OcProduct, Page } from "@tessera/contracts";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";
import { ListPage } from "../../ui/list/ListPage";
import { productColumns } from "./columns";
import { one } from "./query";

/**
 * A brand's card products of one kind, as its service provider sees them inside the brand
 * (`card-brander/cardProducts` with the brand token): the brand's own card products (the one-card
 * module's), read-only, filtered by name and sale state, paged.
 */
export function BrandCardProducts({ kind, header }: { kind: CardProductKind; header: React.ReactNode }) {
  const { t } = useTranslation();
  const columns: TableColumnsType<OcProduct> = [
    ...productColumns(t, kind === "faceValue" ? "face_value" : "discount"),
    {
      title: t("onecard.bo.onSale"),
      dataIndex: "onSale",
      width: 90,
      render: (v: boolean) => (
        <Tag color={v ? "green" : "default"}>{v ? t("onecard.bo.onSale") : t("onecard.bo.offSale")}</Tag>
      ),
    },
  ];
  return (
    <ListPage<OcProduct>
      header={header}
      rowKey="id"
      columns={columns}
      scrollX={1300}
      search={{
        input: { keys: [{ value: "keyword", label: t("onecard.bo.name") }] },
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
      }}
      query={(s) => {
        const onSale = one(s.values.selVal);
        const q = {
          kind,
          page: s.page,
          pageSize: s.pageSize,
          keyword: s.values.inpVal,
          onSale: onSale === "true" || onSale === "false" ? onSale : undefined,
        };
        return {
          queryKey: ["onecard", "cardProducts", q],
          queryFn: async () =>
            unwrap(await http.get<Page<OcProduct>>("/api/card-brander/cardProducts", { query: q, overlay: false })),
        };
      }}
    />
  );
}
