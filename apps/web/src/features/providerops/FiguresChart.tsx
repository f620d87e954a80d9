import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import type { DailyFigure } from "@tessera/contracts";
import { Chart, type ChartOption } from "./Chart";

/** Daily amounts (bars, yuan) and orders (line, right axis) of the served merchants, drawn by ECharts. */
export function FiguresChart({ days }: { days: DailyFigure[] }) {
  const { t } = useTranslation();
  const option = useMemo<ChartOption>(() => {
    const yuan = (minor: number) => minor / 100;
    return {
      tooltip: { trigger: "axis" },
      legend: {
        top: 0,
        data: [t("providerOps.chart.amount"), t("providerOps.chart.refunds"), t("providerOps.chart.orders")],
      },
      grid: { left: 60, right: 60, top: 56, bottom: 32 },
      xAxis: { type: "category", data: days.map((d) => d.day) },
      yAxis: [
        { type: "value", name: t("providerOps.chart.yuan") },
        { type: "value", name: t("providerOps.chart.orders"), minInterval: 1 },
      ],
      series: [
        {
          name: t("providerOps.chart.amount"),
          type: "bar",
          data: days.map((d) => yuan(d.amount.amount)),
          itemStyle: { color: "#1677ff" },
        },
        {
          name: t("providerOps.chart.refunds"),
          type: "bar",
          data: days.map((d) => yuan(d.refunds.amount)),
          itemStyle: { color: "#ff7875" },
        },
        {
          name: t("providerOps.chart.orders"),
          type: "line",
          yAxisIndex: 1,
          data: days.map((d) => d.orders),
          smooth: true,
          itemStyle: { color: "#52c41a" },
        },
      ],
    };
  }, [days, t]);
  return <Chart option={option} height={360} testId="figures-chart" />;
}
