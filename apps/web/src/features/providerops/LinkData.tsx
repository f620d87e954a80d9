import { useQuery } from "@tanstack/react-query";
import { Card, DatePicker, Empty, Flex, Statistic, Table, Tag, type TableColumnsType } from "antd";
import type { Dayjs } from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { LinkMerchant } from "@tessera/contracts";
import { ExportButton } from "../../ui/list/useExport";
import { formatMoney } from "../../ui/money";
import { PageHint } from "../../ui/PageHint";
import { platformToday } from "../../ui/platformDay";
import { providerOpsApi } from "./api";
import { LinkDaysChart, LinkMerchantsChart } from "./LinkCharts";
import { useDatePresets } from "../../ui/list/useDatePresets";

/**
 * `/providers/LinkData`: the link and purchasing figures of the merchants the provider serves over a chosen
 * range (30 days by default): per day their orders, amounts and new dockings (trading links approved),
 * and per served merchant the same, as ECharts charts and a table.
 */
export default function LinkData() {
  const { t } = useTranslation();
  const datePresets = useDatePresets();
  // Days as the platform counts them (UTC+8), so today's orders are in today's range wherever the user is.
  const today = platformToday();
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [today.subtract(29, "day"), today]);
  const q = { from: range[0].format("YYYY-MM-DD"), to: range[1].format("YYYY-MM-DD") };
  const { data, isFetching } = useQuery({
    queryKey: ["providerOps", "linkData", q],
    queryFn: () => providerOpsApi.linkData(q),
  });
  const columns: TableColumnsType<LinkMerchant> = [
    {
      title: t("providerOps.link.merchant"),
      key: "merchant",
      render: (_: unknown, r) => `${r.merchantName} (${r.merchantId})`,
    },
    {
      title: t("providerOps.link.roleTitle"),
      dataIndex: "role",
      width: 120,
      render: (v: LinkMerchant["role"]) => (
        <Tag color={v === "brand" ? "blue" : "green"}>{t(`providerOps.link.role.${v}`)}</Tag>
      ),
    },
    { title: t("providerOps.col.orders"), dataIndex: "orders", width: 100, align: "right" },
    {
      title: t("providerOps.col.amount"),
      dataIndex: "amount",
      width: 140,
      align: "right",
      render: (m: LinkMerchant["amount"]) => formatMoney(m),
    },
    { title: t("providerOps.link.newDockings"), dataIndex: "newDockings", width: 120, align: "right" },
  ];
  return (
    <Flex vertical gap={16}>
      <PageHint
        id="providers.LinkData"
        title={t("providerOps.hint.linkDataTitle")}
        description={t("providerOps.hint.linkData")}
      />
      <Card variant="borderless">
        <Flex gap={48} wrap align="center">
          <DatePicker.RangePicker
            value={range}
            allowClear={false}
            presets={datePresets}
            onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
          />
          <Statistic title={t("providerOps.link.servedBrands")} value={data?.totals.servedBrands ?? 0} />
          <Statistic title={t("providerOps.link.servedVendors")} value={data?.totals.servedVendors ?? 0} />
          <Statistic title={t("providerOps.chart.orders")} value={data?.totals.orders ?? 0} />
          <Statistic title={t("providerOps.chart.amount")} value={data ? formatMoney(data.totals.amount) : "-"} />
          <Statistic title={t("providerOps.link.newDockings")} value={data?.totals.newDockings ?? 0} />
        </Flex>
      </Card>
      <Card variant="borderless" title={t("providerOps.link.byDay")}>
        {data && data.days.length > 0 ? (
          <LinkDaysChart days={data.days} />
        ) : (
          <Empty description={t("providerOps.noData")} />
        )}
      </Card>
      <Card
        variant="borderless"
        title={t("providerOps.link.byMerchant")}
        extra={
          <ExportButton<LinkMerchant>
            columns={columns}
            rows={data?.merchants ?? []}
            name={`${t("providerOps.title.linkData")} ${q.from} ${q.to}`}
          />
        }
      >
        {data && data.merchants.length > 0 ? (
          <LinkMerchantsChart merchants={data.merchants} />
        ) : (
          <Empty description={t("providerOps.noData")} />
        )}
        <Table<LinkMerchant>
          rowKey={(r) => `${r.role}-${r.merchantId}`}
          size="small"
          columns={columns}
          dataSource={data?.merchants ?? []}
          loading={isFetching}
          pagination={false}
          style={{ marginTop: 16 }}
        />
      </Card>
    </Flex>
  );
}
