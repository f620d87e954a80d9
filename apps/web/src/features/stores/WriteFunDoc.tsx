import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { SettlementDoc } from "@tessera/contracts";
import { ListPage } from "../../ui/list/ListPage";
import { PageHint } from "../../ui/PageHint";
import { storeKeys, writeOffApi } from "./api";
import { DocDrawer } from "./DocDrawer";
import { dayRange, docColumns } from "./writeoffLists";

/** `/business/WriteFunDoc`: settlement documents, one per store and day (T+1), each as xlsx or a printable document. */
export default function WriteFunDoc() {
  const { t } = useTranslation();
  const [open, setOpen] = useState<SettlementDoc | null>(null);
  const columns = docColumns(t, setOpen);
  return (
    <>
      <ListPage<SettlementDoc>
        header={
          <PageHint id="business.WriteFunDoc" title={t("writeoff.title.docs")} description={t("writeoff.hint.docs")} />
        }
        rowKey="id"
        columns={columns}
        scrollX={920}
        search={{ dateMode: "date" }}
        exportFile={(values) => ({
          path: "/api/card-brander/writeOff/docs/export",
          query: { ...dayRange(values) },
          fileName: "settlement-documents.xlsx",
        })}
        query={(state) => {
          const q = { page: state.page, pageSize: state.pageSize, ...dayRange(state.values) };
          return { queryKey: storeKeys.docs("brand", q), queryFn: () => writeOffApi.docs(q) };
        }}
      />
      {open && <DocDrawer doc={open} onClose={() => setOpen(null)} />}
    </>
  );
}
