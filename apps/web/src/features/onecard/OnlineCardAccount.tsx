import { Tag, type TableColumnsType } from "antd";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { ONECARD_STATES, type OcCard, type OnecardState } from "@tessera/contracts";
import { ListPage } from "../../ui/list/ListPage";
import { formatMoney } from "../../ui/money";
import { ocKeys, ocSaleApi } from "./api";
import { STATE_COLOR, time } from "./labels";
import { one } from "./query";

const stateOf = (v: string | undefined): OnecardState | undefined =>
  (ONECARD_STATES as readonly string[]).includes(v ?? "") ? (v as OnecardState) : undefined;

/**
 * `/sale/OnlineCardAccount`: the e-cards the purchaser holds online: every card it bought, numbers
 * masked (extraction is the only way to see a number and password), with state, balance, held amount,
 * validity, whether it was extracted and whether it is in a customer's card bag. Filters: state, a
 * full card number, a purchase (`?saleId=`, from BuyRecord).
 */
export default function OnlineCardAccount() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const saleId = params.get("saleId") ?? undefined;
  const columns: TableColumnsType<OcCard> = [
    {
      title: t("onecard.cardNo"),
      dataIndex: "cardNo",
      width: 210,
      render: (v: string) => <span style={{ fontFamily: "monospace", whiteSpace: "nowrap" }}>{v}</span>,
    },
    { title: t("onecard.product"), dataIndex: "productName", ellipsis: true },
    {
      title: t("onecard.bo.kindLabel"),
      dataIndex: "kind",
      width: 120,
      render: (k: OcCard["kind"]) => t(`onecard.bo.kind.${k}`),
    },
    {
      title: t("onecard.stateLabel"),
      dataIndex: "state",
      width: 100,
      render: (s: OnecardState) => <Tag color={STATE_COLOR[s]}>{t(`onecard.state.${s}`)}</Tag>,
    },
    {
      title: t("onecard.faceValue"),
      dataIndex: "faceValue",
      width: 110,
      align: "right",
      render: (m: OcCard["faceValue"]) => formatMoney(m),
    },
    {
      title: t("onecard.balance"),
      dataIndex: "balance",
      width: 110,
      align: "right",
      render: (m: OcCard["balance"]) => formatMoney(m),
    },
    {
      title: t("onecard.bo.held"),
      dataIndex: "held",
      width: 100,
      align: "right",
      render: (m: OcCard["held"]) => formatMoney(m),
    },
    { title: t("onecard.bo.saleNo"), dataIndex: "saleId", width: 100 },
    { title: t("onecard.bo.activatedAt"), dataIndex: "activatedAt", width: 160, render: time },
    { title: t("onecard.expiresAt"), dataIndex: "expiresAt", width: 160, render: time },
    { title: t("onecard.bo.extractedAt"), dataIndex: "extractedAt", width: 160, render: time },
    {
      title: t("onecard.bo.inBag"),
      dataIndex: "inBag",
      width: 100,
      render: (v: boolean) => (v ? t("onecard.bo.yes") : t("onecard.bo.no")),
    },
  ];
  return (
    <ListPage<OcCard>
      rowKey="id"
      columns={columns}
      scrollX={1650}
      search={{
        input: { keys: [{ value: "cardNo", label: t("onecard.bo.fullCardNo"), numeric: true }] },
        select: {
          keys: [
            {
              value: "state",
              label: t("onecard.stateLabel"),
              options: ONECARD_STATES.filter((s) => s !== "issued").map((s) => ({
                value: s,
                label: t(`onecard.state.${s}`),
              })),
            },
          ],
        },
      }}
      query={(state) => {
        const cardNo = state.values.inpVal?.slice(0, 16);
        const q = {
          page: state.page,
          pageSize: state.pageSize,
          state: stateOf(one(state.values.selVal)),
          saleId,
          cardNo: cardNo && cardNo.length >= 4 ? cardNo : undefined,
        };
        return { queryKey: ocKeys.cards(q), queryFn: () => ocSaleApi.cards(q) };
      }}
    />
  );
}
