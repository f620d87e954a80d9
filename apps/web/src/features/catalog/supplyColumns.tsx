import { Tag, type TableColumnsType } from "antd";
import { useTranslation } from "react-i18next";
import type { Goods } from "@tessera/contracts";
import { percent, useDictLabels } from "./labels";
import { formatMoney } from "../../ui/money";

const STATE_COLOR = { available: "green", disabled: "orange", void: "default" } as const;

/**
 * The columns of a supplied goods (spec 01 §3 Supplied goods): code, type, settlement base price, face
 * value, scope, invoice type, purchase price, discount, quantity per order, weight, platform rate,
 * available stock and state. The stock figures come first: available stock, the `figures` given, the
 * state; then the terms.
 */
export function useSuppliedGoodsColumns(figures: TableColumnsType<Goods> = []): TableColumnsType<Goods> {
  const { t } = useTranslation();
  const labels = useDictLabels();
  const money = (amount: number, g: Goods) => formatMoney({ amount, currency: g.currency });
  return [
    { title: t("catalog.field.id"), dataIndex: "id", width: 80, fixed: "left" },
    { title: t("catalog.field.name"), dataIndex: "name", width: 200, fixed: "left" },
    { title: t("catalog.field.stock"), dataIndex: "stock", width: 100 },
    ...figures,
    {
      title: t("catalog.field.state"),
      dataIndex: "state",
      width: 90,
      render: (v: Goods["state"]) => <Tag color={STATE_COLOR[v]}>{t(`catalog.state.${v}`)}</Tag>,
    },
    { title: t("catalog.field.code"), dataIndex: "code", width: 120 },
    { title: t("catalog.field.brand"), dataIndex: "brandName", width: 120 },
    {
      title: t("catalog.field.businessType"),
      dataIndex: "businessType",
      width: 110,
      render: (v: Goods["businessType"]) => labels.businessType(v),
    },
    { title: t("catalog.field.faceValue"), dataIndex: "faceValue", width: 110, render: (v: number, g) => money(v, g) },
    {
      title: t("catalog.field.settlementPrice"),
      dataIndex: "settlementPrice",
      width: 120,
      render: (v: number, g) => money(v, g),
    },
    { title: t("catalog.field.price"), dataIndex: "price", width: 110, render: (v: number, g) => money(v, g) },
    { title: t("catalog.field.discount"), dataIndex: "discountBp", width: 90, render: (v: number) => percent(v) },
    {
      title: t("catalog.field.salesScope"),
      dataIndex: "salesScope",
      width: 110,
      render: (v: string) => t(`catalog.scope.${v}`),
    },
    {
      title: t("catalog.field.invoiceType"),
      dataIndex: "invoiceType",
      width: 170,
      render: (v: Goods["invoiceType"]) => labels.invoiceType(v),
    },
    { title: t("catalog.field.perOrderMax"), dataIndex: "perOrderMax", width: 110 },
    { title: t("catalog.field.weight"), dataIndex: "weight", width: 80 },
    {
      title: t("catalog.field.platformRate"),
      dataIndex: "platformRateBp",
      width: 100,
      render: (v: number) => percent(v),
    },
  ];
}
