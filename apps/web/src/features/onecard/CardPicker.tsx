import { useQuery } from "@tanstack/react-query";
import { Flex, Input, Select, Space, Table, Tag, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { PAGE_SIZES, digitsOnly, type OcCard, type OnecardState } from "@tessera/contracts";
import { formatMoney } from "../../ui/money";
import { ocKeys, ocSaleApi } from "./api";
import { STATE_COLOR } from "./labels";

/**
 * The purchaser's cards in one state, paged by the server, to pick from (activate, return, extract,
 * gift). Filters: a purchase and a full card number. Numbers are masked: only extraction shows them.
 */
export function CardPicker({
  state,
  selected,
  onChange,
  saleOptions,
}: {
  state: OnecardState;
  selected: string[];
  onChange: (ids: string[]) => void;
  saleOptions?: { value: string; label: string }[];
}) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(20);
  const [saleId, setSaleId] = useState<string | undefined>();
  const [cardNo, setCardNo] = useState("");
  const q = { page, pageSize, state, saleId, cardNo: cardNo.length === 16 ? cardNo : undefined };
  const { data, isFetching } = useQuery({
    queryKey: ocKeys.cards(q),
    queryFn: () => ocSaleApi.cards(q),
    placeholderData: (p) => p,
  });
  const columns: TableColumnsType<OcCard> = [
    {
      title: t("onecard.cardNo"),
      dataIndex: "cardNo",
      width: 210,
      render: (v: string) => <span style={{ fontFamily: "monospace", whiteSpace: "nowrap" }}>{v}</span>,
    },
    { title: t("onecard.product"), dataIndex: "productName", ellipsis: true },
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
    { title: t("onecard.bo.saleNo"), dataIndex: "saleId", width: 100 },
    {
      title: t("onecard.stateLabel"),
      dataIndex: "state",
      width: 100,
      render: (s: OnecardState) => <Tag color={STATE_COLOR[s]}>{t(`onecard.state.${s}`)}</Tag>,
    },
  ];
  return (
    <Flex vertical gap={12}>
      <Space wrap>
        {saleOptions && (
          <Select
            allowClear
            style={{ width: 260 }}
            placeholder={t("onecard.bo.filterSale")}
            options={saleOptions}
            value={saleId}
            onChange={(v?: string) => {
              setSaleId(v);
              setPage(1);
            }}
          />
        )}
        <Input
          allowClear
          style={{ width: 240 }}
          inputMode="numeric"
          placeholder={t("onecard.bo.fullCardNo")}
          value={cardNo}
          onChange={(e) => {
            setCardNo(digitsOnly(e.target.value).slice(0, 16));
            setPage(1);
          }}
        />
        <span data-testid="picked">{t("onecard.bo.selected", { n: selected.length })}</span>
      </Space>
      <Table<OcCard>
        size="small"
        rowKey="id"
        columns={columns}
        dataSource={data?.list ?? []}
        loading={isFetching}
        rowSelection={{
          selectedRowKeys: selected,
          preserveSelectedRowKeys: true,
          onChange: (keys) => onChange(keys.map(String)),
        }}
        pagination={{
          current: page,
          pageSize,
          total: data?.total ?? 0,
          pageSizeOptions: PAGE_SIZES.map(String),
          showSizeChanger: true,
          showTotal: (total) => t("list.total", { total }),
          onChange: (p, s) => {
            setPage(s === pageSize ? p : 1);
            setPageSize(s);
          },
        }}
      />
    </Flex>
  );
}
