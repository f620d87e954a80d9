import { Card, DatePicker, Flex, Table, type TableColumnsType } from "antd";
import type { Dayjs } from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { StatementRow } from "@tessera/contracts";
import { useStatement } from "./api";
import { formatMoney } from "../../ui/money";
import { platformToday } from "../../ui/platformDay";
import { ExportButton } from "../../ui/list/useExport";
import { PageHint } from "../../ui/PageHint";
import { useDatePresets } from "../../ui/list/useDatePresets";

/**
 * The supplier's income account per day (`/business/DailyFunds`, statements) or per month
 * (`/business/Billing`, settlements): opening balance, money in, money out, closing balance.
 */
export function StatementPage({ unit }: { unit: "day" | "month" }) {
  const { t } = useTranslation();
  const datePresets = useDatePresets();
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() =>
    unit === "day"
      ? [platformToday().subtract(29, "day"), platformToday()]
      : [platformToday().subtract(11, "month").startOf("month"), platformToday()],
  );
  const query = {
    from: range[0].format("YYYY-MM-DD"),
    to: (unit === "month" ? range[1].endOf("month") : range[1]).format("YYYY-MM-DD"),
  };
  const { data, isFetching } = useStatement(unit, query);
  const currency = data?.currency ?? "CNY";
  const money = (v: number) => formatMoney({ amount: v, currency });
  const columns: TableColumnsType<StatementRow> = [
    { title: t(`statement.period.${unit}`), dataIndex: "period" },
    { title: t("statement.opening"), dataIndex: "opening", align: "right", render: money },
    { title: t("statement.increase"), dataIndex: "increase", align: "right", render: money },
    { title: t("statement.expense"), dataIndex: "expense", align: "right", render: money },
    { title: t("statement.closing"), dataIndex: "closing", align: "right", render: money },
    { title: t("statement.movements"), dataIndex: "movements", align: "right" },
  ];
  return (
    <Flex vertical gap={16}>
      <PageHint
        id={`business.statement.${unit}`}
        title={t(`statement.hintTitle.${unit}`)}
        description={t("statement.hint")}
      />
      <Card variant="borderless">
        <Flex gap={16} wrap>
          <DatePicker.RangePicker
            picker={unit === "day" ? "date" : "month"}
            presets={unit === "day" ? datePresets : undefined}
            value={range}
            allowClear={false}
            onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
            disabledDate={(d) => d.isAfter(platformToday(), "day")}
          />
          <ExportButton
            columns={columns}
            rows={data?.rows ?? []}
            name={`${t(`statement.hintTitle.${unit}`)} ${query.from} ${query.to}`}
          />
        </Flex>
      </Card>
      <Card variant="borderless">
        <Table<StatementRow>
          rowKey="period"
          columns={columns}
          dataSource={data?.rows ?? []}
          loading={isFetching}
          pagination={false}
        />
      </Card>
    </Flex>
  );
}
