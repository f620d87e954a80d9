import { DownloadOutlined } from "@ant-design/icons";
import { App, Button, Card, DatePicker, Flex, Segmented, Table, type TableColumnsType } from "antd";
import type { Dayjs } from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { REPORT_UNITS, type OrderReportRow, type ReportUnit } from "@tessera/contracts";
import { useOrderReport } from "./api";
import { http, saveFile } from "../../api/http";
import { formatMoney } from "../../ui/money";
import { platformToday } from "../../ui/platformDay";
import { ORDER_LIST_PATHS } from "./listFilters";
import { useDatePresets } from "../../ui/list/useDatePresets";

/** The purchase or refund report (spec 01 §3 Reports) by day, week or month and supplier. */
export function OrderReport({ side, kind }: { side: "purchaser" | "supplier"; kind: "purchase" | "refund" }) {
  const { t } = useTranslation();
  const datePresets = useDatePresets();
  const { message } = App.useApp();
  const [unit, setUnit] = useState<ReportUnit>("day");
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [platformToday().subtract(29, "day"), platformToday()]);
  const { data, isFetching } = useOrderReport(side, {
    kind,
    unit,
    from: range[0].format("YYYY-MM-DD"),
    to: range[1].format("YYYY-MM-DD"),
  });
  const [exporting, setExporting] = useState(false);
  const doExport = async () => {
    setExporting(true);
    try {
      const query = { kind, unit, from: range[0].format("YYYY-MM-DD"), to: range[1].format("YYYY-MM-DD") };
      const result = await http.download(ORDER_LIST_PATHS[side].report, {
        query,
        fileName: `${t(`order.tab.${kind}Report`)}-${query.from}-${query.to}.xlsx`,
      });
      if (result?.ok) {
        saveFile(result.data.blob, result.data.fileName);
        void message.success(t("list.exportDone"));
      }
    } finally {
      setExporting(false);
    }
  };
  const money = (v: number, r: OrderReportRow) => formatMoney({ amount: v, currency: r.currency });
  const columns: TableColumnsType<OrderReportRow> = [
    { title: t(`report.period.${unit}`), dataIndex: "period" },
    { title: t("report.supplier"), key: "supplier", render: (_: unknown, r) => `${r.supplierName} (${r.supplierId})` },
    { title: t("report.orders"), dataIndex: "orders", align: "right" },
    { title: t("order.col.quantity"), dataIndex: "quantity", align: "right" },
    { title: t("report.faceAmount"), dataIndex: "faceAmount", align: "right", render: money },
    { title: t(`report.amount.${kind}`), dataIndex: "amount", align: "right", render: money },
    { title: t("report.accountType"), dataIndex: "accountType", render: () => t("funds.account.sup") },
  ];
  return (
    <Flex vertical gap={16}>
      <Card variant="borderless">
        <Flex gap={16} wrap>
          <Segmented<ReportUnit>
            value={unit}
            onChange={setUnit}
            options={REPORT_UNITS.map((u) => ({ value: u, label: t(`report.unit.${u}`) }))}
          />
          <DatePicker.RangePicker
            presets={datePresets}
            value={range}
            allowClear={false}
            onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
            disabledDate={(d) => d.isAfter(platformToday(), "day")}
          />
          <Button
            icon={<DownloadOutlined />}
            loading={exporting}
            onClick={() => void doExport()}
            data-testid={`export-${kind}-report`}
          >
            {t("search.export")}
          </Button>
        </Flex>
      </Card>
      <Card variant="borderless">
        <Table<OrderReportRow>
          rowKey={(r) => `${r.period}-${r.supplierId}-${r.currency}`}
          columns={columns}
          dataSource={data ?? []}
          loading={isFetching}
          pagination={false}
        />
      </Card>
    </Flex>
  );
}
