import { Empty } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { SettlementDoc } from "@tessera/contracts";
import { ListPage } from "../../ui/list/ListPage";
import { PageHint } from "../../ui/PageHint";
import { storeKeys, writeOffApi } from "./api";
import { DocDrawer } from "./DocDrawer";
import { ServedBrandSelect } from "./ServedBrandSelect";
import { dayRange, docColumns } from "./writeoffLists";

/** `/providers/WriteFund`: the settlement documents of a brand this provider serves, each with its redemptions, xlsx and PDF (as the brand's WriteFunDoc). */
export default function WriteFund() {
  const { t } = useTranslation();
  const [branderId, setBranderId] = useState<string | undefined>();
  const [open, setOpen] = useState<SettlementDoc | null>(null);
  const columns = docColumns(t, setOpen, true);
  return (
    <>
      <ListPage<SettlementDoc>
        header={
          <>
            <PageHint id="providers.WriteFund" title={t("writeoff.title.fund")} description={t("writeoff.hint.fund")} />
            <ServedBrandSelect value={branderId} onChange={setBranderId} />
            {!branderId && <Empty description={t("stores.chooseBrand")} />}
          </>
        }
        rowKey="id"
        columns={columns}
        scrollX={1060}
        search={{ dateMode: "date" }}
        query={(state) => {
          const q = { page: state.page, pageSize: state.pageSize, branderId, ...dayRange(state.values) };
          return {
            queryKey: storeKeys.docs("fund", q),
            queryFn: () =>
              branderId
                ? writeOffApi.writeFund(q)
                : Promise.resolve({ list: [], total: 0, page: 1, pageSize: state.pageSize }),
          };
        }}
      />
      {open && <DocDrawer doc={open} served onClose={() => setOpen(null)} />}
    </>
  );
}
