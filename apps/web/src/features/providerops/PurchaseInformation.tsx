import { useQuery } from "@tanstack/react-query";
import { Card, DatePicker, Empty, Flex, Statistic } from "antd";
import type { Dayjs } from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { formatMoney } from "../../ui/money";
import { PageHint } from "../../ui/PageHint";
import { platformToday } from "../../ui/platformDay";
import { providerOpsApi } from "./api";
import { FiguresChart } from "./FiguresChart";
import { useDatePresets } from "../../ui/list/useDatePresets";

/**
 * `/providers/PurchaseInformation`: the purchasing figures of the merchants the provider serves, per day
 * over a chosen range (30 days by default): amounts, refunds and orders as a chart, with the totals.
 */
export default function PurchaseInformation() {
  const { t } = useTranslation();
  const datePresets = useDatePresets();
  // Days as the platform counts them (UTC+8), so today's orders are in today's range wherever the user is.
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [platformToday().subtract(29, "day"), platformToday()]);
  const q = { from: range[0].format("YYYY-MM-DD"), to: range[1].format("YYYY-MM-DD") };
  const { data } = useQuery({ queryKey: ["providerOps", "figures", q], queryFn: () => providerOpsApi.figures(q) });
  return (
    <Flex vertical gap={16}>
      <PageHint
        id="providers.PurchaseInformation"
        title={t("providerOps.hint.figuresTitle")}
        description={t("providerOps.hint.figures")}
      />
      <Card variant="borderless">
        <Flex gap={48} wrap align="center">
          <DatePicker.RangePicker
            presets={datePresets}
            value={range}
            allowClear={false}
            onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
          />
          <Statistic title={t("providerOps.chart.orders")} value={data?.totals.orders ?? 0} />
          <Statistic title={t("providerOps.chart.amount")} value={data ? formatMoney(data.totals.amount) : "-"} />
          <Statistic title={t("providerOps.chart.refunds")} value={data ? formatMoney(data.totals.refunds) : "-"} />
        </Flex>
      </Card>
      <Card variant="borderless">
        {data && data.days.length > 0 ? (
          <FiguresChart days={data.days} />
        ) : (
          <Empty description={t("providerOps.noData")} />
        )}
      </Card>
    </Flex>
  );
}
