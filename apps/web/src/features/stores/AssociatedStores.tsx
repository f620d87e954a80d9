import { useTranslation } from "react-i18next";
import type { Store } from "@tessera/contracts";
import { ListPage } from "../../ui/list/ListPage";
import { PageHint } from "../../ui/PageHint";
import { storeApi, storeKeys } from "./api";
import { useRegions } from "./regions";
import { storeColumns, storeFilters, storeSearch } from "./StoresTable";

/** `/sale/AssociatedStores`: the stores of the suppliers this purchaser is docked with, where the codes it sells are redeemed. */
export default function AssociatedStores() {
  const { t } = useTranslation();
  const regions = useRegions();
  return (
    <ListPage<Store>
      header={
        <PageHint
          id="sale.AssociatedStores"
          title={t("stores.title.AssociatedStores")}
          description={t("stores.hint.associated")}
        />
      }
      rowKey="id"
      columns={storeColumns(t, true)}
      scrollX={1300}
      search={storeSearch(t, regions)}
      query={(state) => {
        const q = { page: state.page, pageSize: state.pageSize, ...storeFilters(state.values) };
        return { queryKey: storeKeys.list("associated", q), queryFn: () => storeApi.associated(q) };
      }}
    />
  );
}
