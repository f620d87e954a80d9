import { Tag, Typography, type TableColumnsType } from "antd";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import type { OcGift } from "@tessera/contracts";
import { ListPage } from "../../ui/list/ListPage";
import { formatMoney } from "../../ui/money";
import { ocKeys, ocSaleApi } from "./api";
import { GIFT_COLOR, time } from "./labels";

/**
 * `/sale/GiftReceiveRecord`: the gifts the purchaser sent and what became of them: waiting to be
 * claimed, claimed into the recipient's card bag (when), or expired and returned to the purchaser. A gift
 * by link shows its link to copy again; `?packageId=` shows one gift package's gifts.
 */
export default function GiftReceiveRecord() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const packageId = params.get("packageId") ?? undefined;
  const columns: TableColumnsType<OcGift> = [
    { title: t("onecard.bo.giftNo"), dataIndex: "id", width: 100 },
    { title: t("onecard.bo.createdAt"), dataIndex: "createdAt", width: 160, render: time },
    {
      title: t("onecard.bo.phone"),
      dataIndex: "phone",
      width: 140,
      render: (v: string | null) => v ?? t("onecard.bo.byLink"),
    },
    {
      title: t("onecard.bo.packageName"),
      dataIndex: "packageName",
      width: 140,
      ellipsis: true,
      render: (v: string | null) => v ?? "-",
    },
    {
      title: t("onecard.bo.link"),
      dataIndex: "link",
      width: 110,
      render: (v: string | null) =>
        v ? (
          <Typography.Text copyable={{ text: `${window.location.origin}${v}` }}>
            {t("onecard.bo.copyLink")}
          </Typography.Text>
        ) : (
          "-"
        ),
    },
    { title: t("onecard.bo.count"), dataIndex: "cardCount", width: 90, align: "right" },
    {
      title: t("onecard.bo.amount"),
      dataIndex: "amount",
      width: 120,
      align: "right",
      render: (m: OcGift["amount"]) => formatMoney(m),
    },
    { title: t("onecard.bo.giftMessage"), dataIndex: "message", ellipsis: true, render: (v: string) => v || "-" },
    {
      title: t("onecard.bo.state"),
      dataIndex: "state",
      width: 110,
      render: (s: OcGift["state"]) => <Tag color={GIFT_COLOR[s]}>{t(`onecard.bo.giftState.${s}`)}</Tag>,
    },
    { title: t("onecard.bo.expires"), dataIndex: "expiresAt", width: 160, render: time },
    { title: t("onecard.bo.claimedAt"), dataIndex: "claimedAt", width: 160, render: time },
  ];
  return (
    <ListPage<OcGift>
      rowKey="id"
      columns={columns}
      scrollX={1550}
      search={{}}
      query={(state) => {
        const q = { page: state.page, pageSize: state.pageSize, packageId };
        return { queryKey: ocKeys.gifts(q), queryFn: () => ocSaleApi.gifts(q) };
      }}
    />
  );
}
