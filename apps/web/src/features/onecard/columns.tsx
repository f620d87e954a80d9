import { Tag, type TableColumnsType } from "antd";
import type { TFunction } from "i18next";
import type { OcProduct, OnecardKind } from "@tessera/contracts";
import { formatMoney } from "../../ui/money";
import { validityText } from "./labels";

/**
 * The columns every list of card products shows (the brand's own pages, and its provider's brand-context
 * pages): name, kind when the list mixes kinds, face value and price, holder, validity, use for equities,
 * issued and in stock.
 */
export function productColumns(t: TFunction, kind: OnecardKind | undefined): TableColumnsType<OcProduct> {
  return [
    { title: t("onecard.bo.name"), dataIndex: "name", width: 260, ellipsis: true },
    ...(kind
      ? []
      : [
          {
            title: t("onecard.bo.kindLabel"),
            dataIndex: "kind",
            width: 120,
            render: (k: OnecardKind) => <Tag>{t(`onecard.bo.kind.${k}`)}</Tag>,
          },
        ]),
    {
      title: t("onecard.faceValue"),
      dataIndex: "faceValue",
      width: 110,
      align: "right",
      render: (m: OcProduct["faceValue"]) => formatMoney(m),
    },
    {
      title: t("onecard.bo.salePrice"),
      dataIndex: "salePrice",
      width: 110,
      align: "right",
      render: (m: OcProduct["salePrice"]) => formatMoney(m),
    },
    {
      title: t("onecard.bo.holder"),
      dataIndex: "named",
      width: 90,
      render: (v: boolean) => (v ? t("onecard.bo.named") : t("onecard.bo.bearer")),
    },
    {
      title: t("onecard.bo.validity"),
      key: "validity",
      width: 160,
      render: (_: unknown, p) => validityText(t, p.validity),
    },
    {
      title: t("onecard.bo.rechargeAllowed"),
      dataIndex: "rechargeAllowed",
      width: 130,
      render: (v: boolean) => (v ? t("onecard.bo.yes") : t("onecard.bo.no")),
    },
    { title: t("onecard.bo.issued"), dataIndex: "issued", width: 90, align: "right" },
    { title: t("onecard.bo.stock"), dataIndex: "stock", width: 90, align: "right" },
  ];
}
