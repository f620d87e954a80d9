import { useQueryClient } from "@tanstack/react-query";
import { Alert, App, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { saveFile } from "../../api/http";
import { ListPage } from "../../ui/list/ListPage";
import { PageHint } from "../../ui/PageHint";
import { ocKeys, ocSaleApi, type OcExtractionRow } from "./api";
import { time } from "./labels";
import { PickCardsDialog } from "./PickCardsDialog";

/**
 * `/sale/Tikatan` (提卡): extraction of unactivated cards: their numbers and passwords as an .xlsx,
 * for printing or handing to buyers. Every extraction is audited and listed here (who, when, how many).
 */
export default function Tikatan() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const columns: TableColumnsType<OcExtractionRow> = [
    { title: t("onecard.bo.extractNo"), dataIndex: "id", width: 110 },
    { title: t("onecard.bo.createdAt"), dataIndex: "createdAt", width: 170, render: time },
    { title: t("onecard.bo.count"), dataIndex: "count", width: 110, align: "right" },
    { title: t("onecard.bo.operator"), dataIndex: "userEmail", ellipsis: true },
  ];
  return (
    <>
      <ListPage<OcExtractionRow>
        header={
          <PageHint id="sale.Tikatan" title={t("onecard.bo.page.Tikatan")} description={t("onecard.bo.hintExtract")} />
        }
        rowKey="id"
        columns={columns}
        search={{ add: { label: t("onecard.bo.extract"), onClick: () => setOpen(true) } }}
        query={(state) => {
          const q = { page: state.page, pageSize: state.pageSize };
          return { queryKey: ocKeys.extractions(q), queryFn: () => ocSaleApi.extractions(q) };
        }}
      />
      {open && (
        <PickCardsDialog
          title={t("onecard.bo.extract")}
          okText={t("onecard.bo.extract")}
          state="sold"
          onClose={() => setOpen(false)}
          onSubmit={async (ids) => {
            const r = await ocSaleApi.extract(ids);
            if (!r?.ok) return false;
            saveFile(r.data.blob, r.data.fileName);
            void message.success(t("onecard.bo.extractedMsg", { count: ids.length }));
            void qc.invalidateQueries({ queryKey: ocKeys.all });
            return true;
          }}
        >
          <Alert style={{ marginTop: 12 }} type="warning" showIcon title={t("onecard.bo.extractWarn")} />
        </PickCardsDialog>
      )}
    </>
  );
}
