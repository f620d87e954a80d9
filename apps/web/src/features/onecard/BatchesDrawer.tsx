import { useQuery } from "@tanstack/react-query";
import { Button, Drawer, Modal, Select, Table, Tag, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import {
  ONECARD_STATES,
  PAGE_SIZES,
  type OcBatch,
  type OcCard,
  type OcProduct,
  type OnecardState,
} from "@tessera/contracts";
import { formatMoney } from "../../ui/money";
import { STATE_COLOR, time } from "./labels";
import { ocBrandApi, ocBrandKeys } from "./brandApi";

function usePaging() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(20);
  const pagination = (total: number) => ({
    current: page,
    pageSize,
    total,
    pageSizeOptions: PAGE_SIZES.map(String),
    showSizeChanger: true,
    showTotal: (n: number) => t("list.total", { total: n }),
    onChange: (p: number, s: number) => {
      setPage(s === pageSize ? p : 1);
      setPageSize(s);
    },
  });
  return { page, pageSize, pagination };
}

/** The cards of one batch as the brand sees them: numbers masked, state, balance, activation. */
function BatchCards({ batch, onClose }: { batch: OcBatch; onClose: () => void }) {
  const { t } = useTranslation();
  const { page, pageSize, pagination } = usePaging();
  const [state, setState] = useState<OnecardState | undefined>();
  const q = { page, pageSize, state };
  const { data, isFetching } = useQuery({
    queryKey: ocBrandKeys.cards(batch.id, q),
    queryFn: () => ocBrandApi.cards(batch.id, q),
    placeholderData: (p) => p,
  });
  const columns: TableColumnsType<OcCard> = [
    {
      title: t("onecard.cardNo"),
      dataIndex: "cardNo",
      width: 210,
      render: (v: string) => <span style={{ fontFamily: "monospace", whiteSpace: "nowrap" }}>{v}</span>,
    },
    {
      title: t("onecard.stateLabel"),
      dataIndex: "state",
      width: 110,
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
    { title: t("onecard.bo.activatedAt"), dataIndex: "activatedAt", width: 150, render: time },
    { title: t("onecard.expiresAt"), dataIndex: "expiresAt", width: 150, render: time },
  ];
  return (
    <Modal
      open
      width={900}
      title={`${t("onecard.bo.batchCards")} · #${batch.id} ${batch.productName}`}
      footer={null}
      onCancel={onClose}
      destroyOnHidden
    >
      <Select
        allowClear
        style={{ width: 200, marginBottom: 12 }}
        placeholder={t("onecard.stateLabel")}
        value={state}
        onChange={(v?: OnecardState) => setState(v)}
        options={ONECARD_STATES.map((s) => ({ value: s, label: t(`onecard.state.${s}`) }))}
      />
      <Table<OcCard>
        size="small"
        rowKey="id"
        columns={columns}
        dataSource={data?.list ?? []}
        loading={isFetching}
        pagination={pagination(data?.total ?? 0)}
        scroll={{ x: 820 }}
      />
    </Modal>
  );
}

/** The batches issued for one product (count, sold, first and last number), each opening its cards. */
export function BatchesDrawer({ product, onClose }: { product: OcProduct; onClose: () => void }) {
  const { t } = useTranslation();
  const { page, pageSize, pagination } = usePaging();
  const [shown, setShown] = useState<OcBatch | null>(null);
  const q = { page, pageSize, productId: product.id };
  const { data, isFetching } = useQuery({
    queryKey: ocBrandKeys.batches(q),
    queryFn: () => ocBrandApi.batches(q),
    placeholderData: (p) => p,
  });
  const columns: TableColumnsType<OcBatch> = [
    { title: t("onecard.bo.batchNo"), dataIndex: "id", width: 90 },
    { title: t("onecard.bo.createdAt"), dataIndex: "createdAt", width: 150, render: time },
    { title: t("onecard.bo.count"), dataIndex: "count", width: 90, align: "right" },
    { title: t("onecard.bo.sold"), dataIndex: "sold", width: 90, align: "right" },
    {
      title: t("onecard.bo.firstNo"),
      dataIndex: "firstNo",
      width: 180,
      render: (v: string) => <span style={{ fontFamily: "monospace" }}>{v}</span>,
    },
    {
      title: t("onecard.bo.lastNo"),
      dataIndex: "lastNo",
      width: 180,
      render: (v: string) => <span style={{ fontFamily: "monospace" }}>{v}</span>,
    },
    {
      title: t("onecard.bo.actions"),
      key: "actions",
      width: 100,
      fixed: "right",
      render: (_: unknown, b) => (
        <Button type="link" size="small" onClick={() => setShown(b)}>
          {t("onecard.bo.cards")}
        </Button>
      ),
    },
  ];
  return (
    <Drawer open size={960} title={`${t("onecard.bo.batches")} · ${product.name}`} onClose={onClose} destroyOnHidden>
      <Table<OcBatch>
        size="small"
        rowKey="id"
        columns={columns}
        dataSource={data?.list ?? []}
        loading={isFetching}
        pagination={pagination(data?.total ?? 0)}
        scroll={{ x: 880 }}
      />
      {shown && <BatchCards batch={shown} onClose={() => setShown(null)} />}
    </Drawer>
  );
}
