import { useTranslation } from "react-i18next";
import type { RebateStatement } from "@tessera/contracts";
import { ListPage } from "../../ui/list/ListPage";
import { rebateColumns } from "./rebateColumns";
import { rebateKeys, supplierRebateApi } from "./rebatesApi";

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * The rebates the supplier granted (a tab of ProcurementLiaison): per purchaser and month, the net
 * volume, the tier's rate and the rebate, paid from the supplier's income (or due while it cannot pay).
 */
export function GrantedRebates() {
  const { t } = useTranslation();
  const columns = rebateColumns(t, "purchaser");
  return (
    <ListPage<RebateStatement>
      rowKey="id"
      columns={columns}
      scrollX={1000}
      exportName={t("rebate.granted.title")}
      search={{ dateMode: "monthRange" }}
      query={(state) => {
        const month = state.values.month;
        const q = {
          page: state.page,
          pageSize: state.pageSize,
          from: Array.isArray(month) ? month[0] : one(month),
          to: Array.isArray(month) ? month[1] : one(month),
        };
        return { queryKey: rebateKeys.granted(q), queryFn: () => supplierRebateApi.granted(q) };
      }}
    />
  );
}
