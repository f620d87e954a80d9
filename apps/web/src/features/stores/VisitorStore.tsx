import { Empty } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { Store } from "@tessera/contracts";
import { ListPage } from "../../ui/list/ListPage";
import { PageHint } from "../../ui/PageHint";
import { storeApi, storeKeys } from "./api";
import { ServedBrandSelect } from "./ServedBrandSelect";
import { useRegions } from "./regions";
import { storeColumns, storeFilters, storeSearch } from "./StoresTable";

/** `/providers/VisitorStore`: the stores of a brand this provider serves. */
export default function VisitorStore() {
  const { t } = useTranslation();
  const regions = useRegions();
  const [branderId, setBranderId] = useState<string | undefined>();
  return (
    <ListPage<Store>
      header={
        <>
          <PageHint
            id="providers.VisitorStore"
            title={t("stores.title.VisitorStore")}
            description={t("stores.hint.visitor")}
          />
          <ServedBrandSelect value={branderId} onChange={setBranderId} />
          {!branderId && <Empty description={t("stores.chooseBrand")} />}
        </>
      }
      rowKey="id"
      columns={storeColumns(t, true)}
      scrollX={1300}
      search={storeSearch(t, regions)}
      query={(state) => {
        const q = { page: state.page, pageSize: state.pageSize, branderId, ...storeFilters(state.values) };
        return {
          queryKey: storeKeys.list("visitor", q),
          queryFn: () =>
            branderId
              ? storeApi.visiting(q)
              : Promise.resolve({ list: [], total: 0, page: 1, pageSize: state.pageSize }),
        };
      }}
    />
  );
}
