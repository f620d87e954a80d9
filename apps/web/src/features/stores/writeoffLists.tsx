import { Button, Tag, type TableColumnsType } from "antd";
import dayjs from "dayjs";
import type { TFunction } from "i18next";
import type { Redemption, SettlementDoc } from "@tessera/contracts";
import { formatMoney } from "../../ui/money";
import type { SearchValues } from "../../ui/list/searchValues";
import { formatTime } from "../../ui/time";

/** The date range of the search bar as from/to days (platform days are calendar days). */
export function dayRange(values: SearchValues): { from?: string; to?: string } {
  if (!values.date) return {};
  return { from: dayjs(values.date[0]).format("YYYY-MM-DD"), to: dayjs(values.date[1]).format("YYYY-MM-DD") };
}

export function redemptionColumns(t: TFunction, withBrand = false): TableColumnsType<Redemption> {
  return [
    {
      title: t("writeoff.time"),
      dataIndex: "createdAt",
      width: 170,
      render: (v: string) => formatTime(v, { seconds: true }),
    },
    ...(withBrand ? [{ title: t("stores.brand"), dataIndex: "branderName", width: 150, ellipsis: true }] : []),
    { title: t("writeoff.store"), dataIndex: "storeName", width: 160, ellipsis: true },
    {
      title: t("writeoff.kindLabel"),
      dataIndex: "kind",
      width: 90,
      render: (k: Redemption["kind"]) => t(`writeoff.kind.${k}`),
    },
    { title: t("writeoff.item"), dataIndex: "itemName", width: 180, ellipsis: true },
    { title: t("writeoff.code"), dataIndex: "codeMask", width: 170 },
    {
      title: t("writeoff.value"),
      dataIndex: "value",
      width: 110,
      align: "right",
      render: (m: Redemption["value"]) => formatMoney(m),
    },
    {
      title: t("writeoff.settleAmount"),
      dataIndex: "settleAmount",
      width: 110,
      align: "right",
      render: (m: Redemption["settleAmount"]) => formatMoney(m),
    },
    { title: t("writeoff.clerk"), dataIndex: "clerkName", width: 120 },
    {
      title: t("writeoff.settled"),
      dataIndex: "settled",
      width: 100,
      render: (v: boolean) => (
        <Tag color={v ? "green" : "orange"}>{v ? t("writeoff.settledYes") : t("writeoff.settledNo")}</Tag>
      ),
    },
  ];
}

/**
 * The settlement documents' columns, one set for the brand's WriteFunDoc and the provider's WriteFund
 * (which adds the brand), ending in the action that opens a document. Their widths sum to 920 px (1,060
 * with the brand), so the brand's list fits the 1280 px back-office without scrolling sideways.
 */
export function docColumns(
  t: TFunction,
  onView: (doc: SettlementDoc) => void,
  withBrand = false,
): TableColumnsType<SettlementDoc> {
  return [
    { title: t("writeoff.docNo"), dataIndex: "id", width: 70 },
    { title: t("writeoff.day"), dataIndex: "day", width: 110 },
    ...(withBrand ? [{ title: t("stores.brand"), dataIndex: "branderName", width: 140, ellipsis: true }] : []),
    { title: t("writeoff.store"), dataIndex: "storeName", width: 170, ellipsis: true },
    { title: t("writeoff.count"), dataIndex: "count", width: 80, align: "right" },
    {
      title: t("writeoff.value"),
      dataIndex: "value",
      width: 110,
      align: "right",
      render: (m: SettlementDoc["value"]) => formatMoney(m),
    },
    {
      title: t("writeoff.settleAmount"),
      dataIndex: "amount",
      width: 110,
      align: "right",
      render: (m: SettlementDoc["amount"]) => formatMoney(m),
    },
    {
      title: t("writeoff.paid"),
      dataIndex: "paid",
      width: 110,
      align: "right",
      render: (m: SettlementDoc["paid"]) => formatMoney(m),
    },
    {
      title: t("writeoff.docState"),
      dataIndex: "state",
      width: 90,
      render: () => <Tag color="green">{t("writeoff.settledYes")}</Tag>,
    },
    {
      title: t("stores.actions"),
      key: "actions",
      width: 70,
      render: (_: unknown, d) => (
        <Button type="link" size="small" onClick={() => onView(d)} data-testid={`doc-${d.storeName}`}>
          {t("writeoff.view")}
        </Button>
      ),
    },
  ];
}
