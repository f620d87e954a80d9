import type { TableColumnsType } from "antd";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ListPage } from "../../ui/list/ListPage";
import { formatMoney } from "../../ui/money";
import { filtersOf, mallApi, mallKeys, type MallMemberRow } from "./api";
import { formatTime } from "../../ui/time";

/** `/sale/MallMember` (and `/business/ShopMember`): the mall's customers, their orders and what they spent. */
export default function MallMember() {
  const { t } = useTranslation();
  const columns: TableColumnsType<MallMemberRow> = [
    { title: t("mall.bo.customer"), dataIndex: "phone", width: 140 },
    {
      title: t("mall.bo.orders"),
      dataIndex: "orders",
      width: 100,
      align: "right",
      render: (n: number, r) => <Link to={`/sale/EquityOrder?inpKey=phone&inpVal=${r.phone}`}>{n}</Link>,
    },
    {
      title: t("mall.bo.spent"),
      dataIndex: "spent",
      width: 120,
      align: "right",
      render: (m: MallMemberRow["spent"]) => formatMoney(m),
    },
    {
      title: t("mall.bo.firstSeen"),
      dataIndex: "firstSeenAt",
      width: 170,
      render: (v: string) => formatTime(v, { seconds: true }),
    },
    {
      title: t("mall.bo.lastSeen"),
      dataIndex: "lastSeenAt",
      width: 170,
      render: (v: string) => formatTime(v, { seconds: true }),
    },
  ];
  return (
    <ListPage<MallMemberRow>
      rowKey="customerId"
      columns={columns}
      search={{ input: { keys: [{ value: "phone", label: t("mall.bo.customer"), numeric: true }] } }}
      query={(state) => {
        const q = { page: state.page, pageSize: state.pageSize, ...filtersOf(state.values, ["phone"]) };
        return { queryKey: mallKeys.list("members", q), queryFn: () => mallApi.members(q) };
      }}
    />
  );
}
