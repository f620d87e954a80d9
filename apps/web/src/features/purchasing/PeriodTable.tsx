import { Card, DatePicker, Flex, Segmented, Table, type TableColumnsType } from "antd";
import type { Dayjs } from "dayjs";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { PAGE_SIZES } from "@tessera/contracts";
import { ExportButton } from "../../ui/list/useExport";
import { platformToday } from "../../ui/platformDay";
import { useDatePresets } from "../../ui/list/useDatePresets";

export interface PeriodState {
  unit: "day" | "month";
  from: string;
  to: string;
}

/**
 * A table of per-period figures with its range picker (and day/month switch when `units` is set); pages
 * of 20 to 1000 rows like every list. The rows come from `useRows` for the chosen range.
 */
export function PeriodTable<Row extends object>(props: {
  header: ReactNode;
  units?: boolean;
  rowKey: keyof Row & string;
  columns: TableColumnsType<Row>;
  useRows: (state: PeriodState) => { data: Row[] | undefined; isFetching: boolean };
  /** The exported file's name (default: the page title). */
  exportName?: string;
}) {
  const { t } = useTranslation();
  const datePresets = useDatePresets();
  const [unit, setUnit] = useState<"day" | "month">("day");
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [platformToday().subtract(29, "day"), platformToday()]);
  const [pageSize, setPageSize] = useState<number>(PAGE_SIZES[0]);
  const { data, isFetching } = props.useRows({
    unit,
    from: range[0].format("YYYY-MM-DD"),
    to: range[1].format("YYYY-MM-DD"),
  });
  return (
    <Flex vertical gap={16}>
      {props.header}
      <Card variant="borderless">
        <Flex gap={16} wrap>
          {props.units && (
            <Segmented<"day" | "month">
              value={unit}
              onChange={setUnit}
              options={(["day", "month"] as const).map((u) => ({ value: u, label: t(`report.unit.${u}`) }))}
            />
          )}
          <DatePicker.RangePicker
            presets={datePresets}
            value={range}
            allowClear={false}
            onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
            disabledDate={(d) => d.isAfter(platformToday(), "day")}
          />
          <ExportButton
            columns={props.columns}
            rows={data ?? []}
            name={`${props.exportName ?? document.title.split(" - ")[0] ?? "export"} ${range[0].format("YYYY-MM-DD")} ${range[1].format("YYYY-MM-DD")}`}
          />
        </Flex>
      </Card>
      <Card variant="borderless">
        <Table<Row>
          rowKey={props.rowKey}
          columns={props.columns}
          dataSource={data ?? []}
          loading={isFetching}
          scroll={{ x: 1000 }}
          pagination={{
            pageSize,
            pageSizeOptions: PAGE_SIZES.map(String),
            showSizeChanger: true,
            onShowSizeChange: (_, size) => setPageSize(size),
            showTotal: (total) => t("list.total", { total }),
          }}
        />
      </Card>
    </Flex>
  );
}
