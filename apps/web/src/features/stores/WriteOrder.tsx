import { useTranslation } from "react-i18next";
import type { Redemption } from "@tessera/contracts";
import { ListPage } from "../../ui/list/ListPage";
import { PageHint } from "../../ui/PageHint";
import { storeKeys, writeOffApi } from "./api";
import { dayRange, redemptionColumns } from "./writeoffLists";

/** `/sale/WriteOrder`: redemption orders: where and when the codes this purchaser bought were redeemed. */
export default function WriteOrder() {
  const { t } = useTranslation();
  return (
    <ListPage<Redemption>
      header={
        <PageHint id="sale.WriteOrder" title={t("writeoff.title.orders")} description={t("writeoff.hint.orders")} />
      }
      rowKey="id"
      columns={redemptionColumns(t, true)}
      scrollX={1500}
      search={{ dateMode: "date" }}
      query={(state) => {
        const q = { page: state.page, pageSize: state.pageSize, ...dayRange(state.values) };
        return { queryKey: storeKeys.redemptions("sale", q), queryFn: () => writeOffApi.writeOrders(q) };
      }}
    />
  );
}
