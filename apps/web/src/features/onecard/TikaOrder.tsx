import { useQuery } from "@tanstack/react-query";
import type { TableColumnsType } from "antd";
import { useTranslation } from "react-i18next";
import type { OcServedExtraction, Page } from "@tessera/contracts";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";
import { ListPage } from "../../ui/list/ListPage";
import { formatMoney } from "../../ui/money";
import { PageHint } from "../../ui/PageHint";
import { time } from "./labels";
import { one } from "./query";
import { servedQuery } from "../onboarding/api";

/**
 * `/providers/TikaOrder`: the card extractions (提卡) of the purchasers this provider serves: which
 * purchaser took delivery of how many cards of which products, by whom and when. The card numbers and
 * passwords stay with the purchaser's own extraction (Tikatan).
 */
export default function TikaOrder() {
  const { t } = useTranslation();
  const vendors = useQuery(servedQuery({ page: 1, pageSize: 200, kind: "vendor" }));
  const columns: TableColumnsType<OcServedExtraction> = [
    { title: t("onecard.bo.extractionNo"), dataIndex: "id", width: 90 },
    { title: t("onecard.bo.createdAt"), dataIndex: "createdAt", width: 150, render: time },
    { title: t("onecard.bo.purchaser"), dataIndex: "merchantName", width: 200, ellipsis: true },
    { title: t("onecard.product"), dataIndex: "products", width: 220, ellipsis: true },
    { title: t("onecard.bo.count"), dataIndex: "count", width: 90, align: "right" },
    {
      title: t("onecard.faceValue"),
      dataIndex: "faceValue",
      width: 120,
      align: "right",
      render: (m: OcServedExtraction["faceValue"]) => formatMoney(m),
    },
    { title: t("onecard.bo.extractedBy"), dataIndex: "userEmail", width: 220, ellipsis: true },
  ];
  return (
    <ListPage<OcServedExtraction>
      header={
        <PageHint
          id="providers.TikaOrder"
          title={t("onecard.bo.page.TikaOrder")}
          description={t("onecard.bo.hintTikaOrder")}
        />
      }
      rowKey="id"
      columns={columns}
      scrollX={1100}
      search={{
        dateMode: "date",
        select: {
          keys: [
            {
              value: "merchantId",
              label: t("onecard.bo.purchaser"),
              options: (vendors.data?.list ?? []).map((v) => ({ value: v.merchantId, label: v.merchantName })),
            },
          ],
        },
      }}
      query={(state) => {
        const q = {
          page: state.page,
          pageSize: state.pageSize,
          merchantId: one(state.values.selVal),
          from: state.values.date?.[0]?.slice(0, 10),
          to: state.values.date?.[1]?.slice(0, 10),
        };
        return {
          queryKey: ["onecard", "servedExtractions", q],
          queryFn: async () =>
            unwrap(
              await http.get<Page<OcServedExtraction>>("/api/card-servicer/onecard/extractions", {
                query: q,
                overlay: false,
              }),
            ),
        };
      }}
    />
  );
}
