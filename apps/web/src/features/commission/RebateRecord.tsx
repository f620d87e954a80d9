import { useTranslation } from "react-i18next";
import type { Page, RebateStatement } from "@tessera/contracts";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";
import { ListPage } from "../../ui/list/ListPage";
import { PageHint } from "../../ui/PageHint";
import { rebateColumns } from "./rebateColumns";

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * `/sale/RebateRecord`: the rebates the purchaser earned, per supplier and month: the month's net
 * purchase volume, the tier reached and the rebate, paid into the rebate account (or due while the
 * supplier cannot pay it yet).
 */
export default function RebateRecord() {
  const { t } = useTranslation();
  const columns = rebateColumns(t, "supplier");
  return (
    <ListPage<RebateStatement>
      header={
        <PageHint id="sale.RebateRecord" title={t("rebate.hint.recordTitle")} description={t("rebate.hint.record")} />
      }
      rowKey="id"
      columns={columns}
      scrollX={1000}
      search={{ dateMode: "monthRange" }}
      query={(state) => {
        const month = state.values.month;
        const q = {
          page: state.page,
          pageSize: state.pageSize,
          from: Array.isArray(month) ? month[0] : one(month),
          to: Array.isArray(month) ? month[1] : one(month),
        };
        return {
          queryKey: ["rebate", "records", q],
          queryFn: async () =>
            unwrap(
              await http.get<Page<RebateStatement>>("/api/card-user/rebate/records", { query: q, overlay: false }),
            ),
        };
      }}
    />
  );
}
