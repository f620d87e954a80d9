import { DownloadOutlined } from "@ant-design/icons";
import { App, Button, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { CURRENCIES, type Money } from "@tessera/contracts";
import type { Query } from "../../api/client";
import { http, saveFile } from "../../api/http";
import { formatMoney } from "../money";
import { exportTable } from "./listExport";

const moneyText = (m: { amount: number; currency: string }): string =>
  (CURRENCIES as readonly string[]).includes(m.currency) ? formatMoney(m as Money) : String(m.amount);

/** What to export: the server's file for the filters, or the rows a list read, as its columns show them. */
export type ExportSource<Row extends object> =
  | { kind: "server"; path: string; query: Query; fileName: string }
  | { kind: "rows"; columns: TableColumnsType<Row>; rows: () => Promise<Row[]>; name: string };

/** A file name's stem from a title: no characters file systems refuse. */
export const fileStem = (name: string): string => name.replace(/[\\/:*?"<>|]/g, " ").trim() || "export";

/**
 * One export with the states of spec 01 §4: generating (a message that stays), then success or download
 * failed in its place. Every list uses it: the list page, statements and period tables.
 */
export function useExport() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [exporting, setExporting] = useState(false);
  const run = async <Row extends object>(source: ExportSource<Row>): Promise<boolean> => {
    const key = "list-export";
    setExporting(true);
    void message.open({ key, type: "loading", content: t("list.exportGenerating"), duration: 0 });
    let done = false;
    try {
      if (source.kind === "server") {
        const result = await http.download(source.path, { query: source.query, fileName: source.fileName });
        if (result?.ok) {
          saveFile(result.data.blob, result.data.fileName);
          done = true;
        }
      } else {
        const table = exportTable(source.columns, await source.rows(), moneyText);
        const { xlsxBytes, XLSX_TYPE } = await import("./xlsx");
        const stem = fileStem(source.name);
        saveFile(
          new Blob([xlsxBytes(stem, table.header, table.rows) as BlobPart], { type: XLSX_TYPE }),
          `${stem}.xlsx`,
        );
        done = true;
      }
    } catch {
      done = false;
    } finally {
      setExporting(false);
      void message.open(
        done
          ? { key, type: "success", content: t("list.exportDone") }
          : { key, type: "error", content: t("list.exportFailed") },
      );
    }
    return done;
  };
  return { exporting, run };
}

/** The export button of a table that is not a list page (statements, period tables): its rows as shown. */
export function ExportButton<Row extends object>({
  columns,
  rows,
  name,
  testId,
}: {
  columns: TableColumnsType<Row>;
  rows: Row[];
  name: string;
  testId?: string;
}) {
  const { t } = useTranslation();
  const { exporting, run } = useExport();
  return (
    <Button
      icon={<DownloadOutlined />}
      loading={exporting}
      onClick={() => void run({ kind: "rows", columns, rows: () => Promise.resolve(rows), name })}
      data-testid={testId ?? "list-export"}
    >
      {t("search.export")}
    </Button>
  );
}
