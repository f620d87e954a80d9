import { useTranslation } from "react-i18next";
import type { LinkDay, LinkMerchant } from "@tessera/contracts";
import { Chart, type ChartOption as Option } from "./Chart";

/** Per day: the served merchants' purchases (bars, yuan), orders and new dockings (lines, right axis). */
export function LinkDaysChart({ days }: { days: LinkDay[] }) {
  const { t } = useTranslation();
  const option: Option = {
    tooltip: { trigger: "axis" },
    legend: {
      top: 0,
      data: [t("providerOps.chart.amount"), t("providerOps.chart.orders"), t("providerOps.link.newDockings")],
    },
    grid: { left: 60, right: 60, top: 56, bottom: 32 },
    xAxis: { type: "category", data: days.map((d) => d.day) },
    yAxis: [
      { type: "value", name: t("providerOps.chart.yuan") },
      { type: "value", name: t("providerOps.link.count"), minInterval: 1 },
    ],
    series: [
      {
        name: t("providerOps.chart.amount"),
        type: "bar",
        data: days.map((d) => d.amount.amount / 100),
        itemStyle: { color: "#1677ff" },
      },
      {
        name: t("providerOps.chart.orders"),
        type: "line",
        yAxisIndex: 1,
        data: days.map((d) => d.orders),
        smooth: true,
        itemStyle: { color: "#52c41a" },
      },
      {
        name: t("providerOps.link.newDockings"),
        type: "line",
        yAxisIndex: 1,
        data: days.map((d) => d.newDockings),
        itemStyle: { color: "#fa8c16" },
      },
    ],
  };
  return <Chart option={option} height={360} testId="link-days-chart" />;
}

/** Per served merchant (the 15 largest by amount): purchases or sales (bars) and orders. */
export function LinkMerchantsChart({ merchants }: { merchants: LinkMerchant[] }) {
  const { t } = useTranslation();
  const top = merchants.slice(0, 15).reverse();
  const option: Option = {
    tooltip: { trigger: "axis", axisPointer: { type: "shadow" } },
    legend: { top: 0, data: [t("providerOps.chart.amount"), t("providerOps.chart.orders")] },
    grid: { left: 180, right: 60, top: 64, bottom: 24 },
    yAxis: {
      type: "category",
      data: top.map((m) => `${m.merchantName} (${t(`providerOps.link.role.${m.role}`)})`),
      axisLabel: { width: 160, overflow: "truncate" },
    },
    xAxis: [
      { type: "value", name: t("providerOps.chart.yuan") },
      {
        type: "value",
        name: t("providerOps.chart.orders"),
        minInterval: 1,
        position: "top",
        splitLine: { show: false },
      },
    ],
    series: [
      {
        name: t("providerOps.chart.amount"),
        type: "bar",
        data: top.map((m) => m.amount.amount / 100),
        itemStyle: { color: "#1677ff" },
      },
      {
        name: t("providerOps.chart.orders"),
        type: "bar",
        xAxisIndex: 1,
        data: top.map((m) => m.orders),
        itemStyle: { color: "#52c41a" },
      },
    ],
  };
  return <Chart option={option} height={Math.max(220, 100 + top.length * 40)} testId="link-merchants-chart" />;
}
