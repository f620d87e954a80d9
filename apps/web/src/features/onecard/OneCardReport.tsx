import { useQuery } from "@tanstack/react-query";
import { DownloadOutlined } from "@ant-design/icons";
import { App, Button, Card, DatePicker, Flex, Segmented, Space, Statistic, Table, type TableColumnsType } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { http, saveFile } from "../../api/http";
import { formatMoney } from "../../ui/money";
import { ocKeys, ocSaleApi, type OcReportRow } from "./api";
import { useDatePresets } from "../../ui/list/useDatePresets";

type Dimension = "day" | "week" | "month";

/**
 * `/sale/OneCardReport`: the purchaser's cards by day, week or month: cards bought and paid, activated
 * and the value loaded, returned and refunded, redeemed by customers; and the balances still
 * outstanding on its activated cards; exported as xlsx.
 */
export default function OneCardReport() {
  const { t } = useTranslation();
  const datePresets = useDatePresets();
  const [dimension, setDimension] = useState<Dimension>("day");
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(null);
  const { message } = App.useApp();
  const [exporting, setExporting] = useState(false);
  const q = { dimension, from: range?.[0].format("YYYY-MM-DD"), to: range?.[1].format("YYYY-MM-DD") };
  const { data, isFetching } = useQuery({
    queryKey: ocKeys.report(q),
    queryFn: () => ocSaleApi.report(q),
    placeholderData: (p) => p,
  });
  const m = (v: OcReportRow["soldAmount"]) => formatMoney(v);
  const download = async () => {
    setExporting(true);
    const r = await http.download("/api/card-user/onecard/report/export", {
      query: q,
      fileName: `one-card-report-${dimension}.xlsx`,
    });
    setExporting(false);
    if (r?.ok) {
      saveFile(r.data.blob, r.data.fileName);
      void message.success(t("list.exportDone"));
    }
  };
  const columns: TableColumnsType<OcReportRow> = [
    { title: t("onecard.bo.period"), dataIndex: "period", width: 130 },
    { title: t("onecard.bo.soldCount"), dataIndex: "soldCount", align: "right" },
    { title: t("onecard.bo.soldAmount"), dataIndex: "soldAmount", align: "right", render: m },
    { title: t("onecard.bo.activatedCount"), dataIndex: "activatedCount", align: "right" },
    { title: t("onecard.bo.activatedValue"), dataIndex: "activatedValue", align: "right", render: m },
    { title: t("onecard.bo.returnedCount"), dataIndex: "returnedCount", align: "right" },
    { title: t("onecard.bo.returnedAmount"), dataIndex: "returnedAmount", align: "right", render: m },
    { title: t("onecard.bo.redeemed"), dataIndex: "redeemed", align: "right", render: m },
  ];
  return (
    <Flex vertical gap={16}>
      <Card variant="borderless">
        <Flex gap={48} wrap>
          <Statistic title={t("onecard.bo.outstanding")} value={data ? formatMoney(data.outstanding) : "-"} />
          <Statistic title={t("onecard.bo.heldCards")} value={data?.heldCards ?? "-"} />
        </Flex>
      </Card>
      <Card variant="borderless">
        <Space wrap size={16} style={{ marginBottom: 16 }}>
          <Segmented<Dimension>
            value={dimension}
            onChange={setDimension}
            options={(["day", "week", "month"] as const).map((d) => ({
              value: d,
              label: t(`onecard.bo.dimension.${d}`),
            }))}
          />
          <DatePicker.RangePicker
            presets={datePresets}
            value={range}
            onChange={(v) => setRange(v && v[0] && v[1] ? [v[0], v[1]] : null)}
            disabledDate={(d) => d.isAfter(dayjs().endOf("day"))}
            allowClear
          />
          <Button
            icon={<DownloadOutlined />}
            loading={exporting}
            onClick={() => void download()}
            data-testid="report-export"
          >
            {t("onecard.bo.exportXlsx")}
          </Button>
        </Space>
        <Table<OcReportRow>
          rowKey="period"
          size="middle"
          columns={columns}
          dataSource={data?.rows ?? []}
          loading={isFetching}
          pagination={false}
          scroll={{ x: 1000 }}
        />
      </Card>
    </Flex>
  );
}
