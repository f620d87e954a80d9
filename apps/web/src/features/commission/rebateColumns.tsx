import { Tag, type TableColumnsType } from "antd";
import type { TFunction } from "i18next";
import type { RebateStatement } from "@tessera/contracts";
import { percent } from "../catalog/labels";
import { formatMoney } from "../../ui/money";
import { formatTime } from "../../ui/time";

/**
 * The columns of a rebate statement list, seen from one side: the purchaser's RebateRecord names the
 * supplier that pays, the supplier's granted rebates name the purchaser that earned it.
 */
export function rebateColumns(t: TFunction, counterpart: "supplier" | "purchaser"): TableColumnsType<RebateStatement> {
  return [
    { title: t("rebate.col.period"), dataIndex: "period", width: 100 },
    counterpart === "supplier"
      ? {
          title: t("rebate.col.supplier"),
          key: "supplier",
          render: (_: unknown, r) => `${r.supplierName} (${r.supplierId})`,
        }
      : {
          title: t("rebate.col.purchaser"),
          key: "purchaser",
          render: (_: unknown, r) => `${r.purchaserName} (${r.purchaserId})`,
        },
    {
      title: t("rebate.col.volume"),
      dataIndex: "volume",
      align: "right",
      render: (m: RebateStatement["volume"]) => formatMoney(m),
    },
    { title: t("rebate.col.rate"), dataIndex: "rateBp", align: "right", width: 90, render: (v: number) => percent(v) },
    {
      title: t("rebate.col.amount"),
      dataIndex: "amount",
      align: "right",
      render: (m: RebateStatement["amount"]) => <strong>{formatMoney(m)}</strong>,
    },
    {
      title: t("rebate.col.state"),
      dataIndex: "state",
      width: 100,
      render: (s: RebateStatement["state"]) => (
        <Tag color={s === "paid" ? "success" : "processing"}>{t(`rebate.state.${s}`)}</Tag>
      ),
    },
    {
      title: t("rebate.col.paidAt"),
      dataIndex: "paidAt",
      width: 180,
      render: (v: string | null) => (v ? formatTime(v, { seconds: true }) : "-"),
    },
  ];
}
