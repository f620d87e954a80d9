import { useQuery } from "@tanstack/react-query";
import { Card, DatePicker, Flex, Table, type TableColumnsType } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { ServedSettlement } from "@tessera/contracts";
import { formatMoney } from "../../ui/money";
import { PageHint } from "../../ui/PageHint";
import { providerOpsApi } from "./api";
import { ExportButton } from "../../ui/list/useExport";

/** `/providers/SettlementManagement`: per served brand and month, orders, sales, refunds and net. */
export default function SettlementManagement() {
  const { t } = useTranslation();
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [dayjs().subtract(5, "month"), dayjs()]);
  const q = { from: range[0].format("YYYY-MM"), to: range[1].format("YYYY-MM") };
  const { data, isFetching } = useQuery({
    queryKey: ["providerOps", "settlements", q],
    queryFn: () => providerOpsApi.settlements(q),
  });
  const columns: TableColumnsType<ServedSettlement> = [
    { title: t("providerOps.col.month"), dataIndex: "month", width: 100 },
    {
      title: t("providerOps.col.brandOwner"),
      key: "supplier",
      render: (_: unknown, r) => `${r.supplierName} (${r.supplierId})`,
    },
    { title: t("providerOps.col.orders"), dataIndex: "orders", align: "right", width: 100 },
    {
      title: t("providerOps.col.sales"),
      dataIndex: "sales",
      align: "right",
      render: (m: ServedSettlement["sales"]) => formatMoney(m),
    },
    {
      title: t("providerOps.col.refunds"),
      dataIndex: "refunds",
      align: "right",
      render: (m: ServedSettlement["refunds"]) => formatMoney(m),
    },
    {
      title: t("providerOps.col.net"),
      dataIndex: "net",
      align: "right",
      render: (m: ServedSettlement["net"]) => <strong>{formatMoney(m)}</strong>,
    },
  ];
  return (
    <Flex vertical gap={16}>
      <PageHint
        id="providers.SettlementManagement"
        title={t("providerOps.hint.settlementsTitle")}
        description={t("providerOps.hint.settlements")}
      />
      <Card
        variant="borderless"
        extra={
          <DatePicker.RangePicker
            picker="month"
            value={range}
            allowClear={false}
            onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
          />
        }
      >
        <Flex justify="end" style={{ marginBottom: 12 }}>
          <ExportButton<ServedSettlement>
            columns={columns}
            rows={data ?? []}
            name={document.title.split(" - ")[0] ?? ""}
          />
        </Flex>
        <Table<ServedSettlement>
          rowKey={(r) => `${r.supplierId}-${r.month}-${r.sales.currency}`}
          columns={columns}
          dataSource={data ?? []}
          loading={isFetching}
          pagination={false}
          scroll={{ x: 800 }}
        />
      </Card>
    </Flex>
  );
}
