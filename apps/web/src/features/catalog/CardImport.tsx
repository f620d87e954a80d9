import { DownloadOutlined, UploadOutlined } from "@ant-design/icons";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Card, Descriptions, Flex, Select, Space, Statistic, Table, Tabs, Tag, Upload } from "antd";
import { useState, type Key } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import {
  CARD_STATES,
  isCardBusinessType,
  PAGE_SIZES,
  type CardBatch,
  type CardState,
  type Card as CodeRow,
} from "@tessera/contracts";
import { saveFile } from "../../api/http";
import { PageHint } from "../../ui/PageHint";
import { catalogApi, catalogKeys, importCards } from "./api";
import { formatTime } from "../../ui/time";

const BATCH_COLOR = { importing: "processing", done: "success", failed: "error" } as const;

/**
 * `/business/CardImport?goodsId=` (reached from Cards on SuppliedProducts): the card-secret import of
 * spec 01 §2 screen 13: download the template, upload a filled xlsx or csv, see what landed and what
 * was refused (with a downloadable reject report), the goods' import records and its codes, masked.
 */
export default function CardImport() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const goodsId = Number(params.get("goodsId")) || undefined;
  const [result, setResult] = useState<CardBatch | null>(null);
  const [uploading, setUploading] = useState(false);
  const [cardState, setCardState] = useState<CardState | undefined>(undefined);
  const [page, setPage] = useState({ page: 1, pageSize: 20 });
  const [selected, setSelected] = useState<Key[]>([]);

  const goodsQuery = { page: 1, pageSize: 1000, state: "available" };
  const { data: goodsPage } = useQuery({
    queryKey: catalogKeys.products(goodsQuery),
    queryFn: () => catalogApi.products(goodsQuery),
  });
  const cardGoods = (goodsPage?.list ?? []).filter((g) => isCardBusinessType(g.businessType));
  const { data: goods } = useQuery({
    queryKey: catalogKeys.product(goodsId ?? 0),
    queryFn: () => catalogApi.product(goodsId ?? 0),
    enabled: goodsId !== undefined,
  });
  const batchQuery = { goodsId, page: 1, pageSize: 20 };
  const { data: batches } = useQuery({
    queryKey: catalogKeys.batches(batchQuery),
    queryFn: () => catalogApi.batches(batchQuery),
    enabled: goodsId !== undefined,
  });
  const cardQuery = { ...page, state: cardState };
  const { data: cards, isFetching } = useQuery({
    queryKey: catalogKeys.cards(goodsId ?? 0, cardQuery),
    queryFn: () => catalogApi.cards(goodsId ?? 0, cardQuery),
    enabled: goodsId !== undefined,
  });

  const refresh = () => void queryClient.invalidateQueries({ queryKey: catalogKeys.all });
  const download = async (p: ReturnType<typeof catalogApi.template>) => {
    const r = await p;
    if (r?.ok) saveFile(r.data.blob, r.data.fileName);
  };

  const upload = async (file: File) => {
    if (!goodsId) return;
    setUploading(true);
    try {
      const r = await importCards(goodsId, file);
      if (!r.ok) {
        void message.error(r.msg);
        return;
      }
      setResult(r.data);
      void message.success(
        t("catalog.msg.imported", { imported: r.data.imported, rejected: r.data.rejected, total: r.data.totalRows }),
      );
      refresh();
    } finally {
      setUploading(false);
    }
  };

  /** Voiding is final: the confirmation names how many codes of which goods. */
  const voidSelected = () => {
    if (!goodsId || selected.length === 0) return;
    void modal.confirm({
      title: t("catalog.msg.voidConfirmTitle", { count: selected.length, goods: goods?.name ?? "" }),
      content: t("catalog.msg.voidConfirmBody"),
      okButtonProps: { danger: true },
      okText: t("catalog.action.voidSelected"),
      onOk: async () => {
        const r = await catalogApi.voidCards(goodsId, selected.map(Number));
        if (r?.ok) {
          void message.success(t("catalog.msg.voided", { count: r.data.voided }));
          setSelected([]);
          refresh();
        }
      },
    });
  };

  const batchColumns = [
    { title: t("catalog.import.batch"), dataIndex: "id", width: 80 },
    { title: t("catalog.import.fileName"), dataIndex: "fileName" },
    {
      title: t("catalog.field.state"),
      dataIndex: "status",
      render: (s: CardBatch["status"]) => <Tag color={BATCH_COLOR[s]}>{t(`catalog.import.status.${s}`)}</Tag>,
    },
    { title: t("catalog.import.totalRows"), dataIndex: "totalRows" },
    { title: t("catalog.import.imported"), dataIndex: "imported" },
    { title: t("catalog.import.rejected"), dataIndex: "rejected" },
    {
      title: t("catalog.import.createdAt"),
      dataIndex: "createdAt",
      render: (v: string) => formatTime(v, { seconds: true }),
    },
    {
      title: t("catalog.field.actions"),
      render: (_: unknown, b: CardBatch) =>
        b.rejected > 0 ? (
          <Button type="link" size="small" onClick={() => void download(catalogApi.rejectReport(b.id))}>
            {t("catalog.action.rejectReport")}
          </Button>
        ) : null,
    },
  ];

  return (
    <Flex vertical gap={16}>
      <PageHint id="business.CardImport" title={t("catalog.hint.importTitle")} description={t("catalog.hint.import")} />
      <Card variant="borderless">
        <Flex gap={24} wrap align="center">
          <Space>
            <span>{t("catalog.import.goods")}</span>
            <Select
              showSearch={{ optionFilterProp: "label" }}
              style={{ width: 320 }}
              value={goodsId}
              aria-label={t("catalog.import.goods")}
              options={cardGoods.map((g) => ({ value: g.id, label: `${g.id} ${g.name}` }))}
              onChange={(id: number) => {
                setResult(null);
                setSelected([]);
                setParams({ goodsId: String(id) });
              }}
            />
          </Space>
          {goods && <Statistic title={t("catalog.field.stock")} value={goods.stock} />}
          <Space>
            <Button icon={<DownloadOutlined />} onClick={() => void download(catalogApi.template())}>
              {t("catalog.action.downloadTemplate")}
            </Button>
            <Upload
              accept=".xlsx,.csv"
              showUploadList={false}
              disabled={!goodsId || uploading}
              beforeUpload={(file) => {
                void upload(file);
                return false;
              }}
            >
              <Button type="primary" icon={<UploadOutlined />} loading={uploading} disabled={!goodsId}>
                {t("catalog.action.chooseFile")}
              </Button>
            </Upload>
          </Space>
        </Flex>
        {result && (
          <Alert
            style={{ marginTop: 16 }}
            type={result.rejected > 0 ? "warning" : "success"}
            showIcon
            title={t("catalog.import.result")}
            description={
              <Flex vertical gap={8}>
                <Descriptions
                  size="small"
                  column={3}
                  items={[
                    { key: "rows", label: t("catalog.import.totalRows"), children: result.totalRows },
                    { key: "ok", label: t("catalog.import.imported"), children: result.imported },
                    { key: "bad", label: t("catalog.import.rejected"), children: result.rejected },
                  ]}
                />
                {result.rejected > 0 && (
                  <div>
                    <Button
                      icon={<DownloadOutlined />}
                      onClick={() => void download(catalogApi.rejectReport(result.id))}
                    >
                      {t("catalog.action.rejectReport")}
                    </Button>
                  </div>
                )}
              </Flex>
            }
          />
        )}
      </Card>
      {goodsId && (
        <Card variant="borderless">
          <Tabs
            items={[
              {
                key: "cards",
                label: t("catalog.import.cards"),
                children: (
                  <Flex vertical gap={12}>
                    <Space>
                      <Select
                        allowClear
                        style={{ width: 160 }}
                        placeholder={t("catalog.field.state")}
                        aria-label={t("catalog.field.state")}
                        value={cardState}
                        onChange={(v: CardState | undefined) => {
                          setCardState(v);
                          setPage({ page: 1, pageSize: page.pageSize });
                        }}
                        options={CARD_STATES.map((s) => ({ value: s, label: t(`catalog.cardState.${s}`) }))}
                      />
                      <Button danger disabled={selected.length === 0} onClick={voidSelected}>
                        {t("catalog.action.voidSelected")}
                      </Button>
                    </Space>
                    <Table<CodeRow>
                      rowKey="id"
                      size="small"
                      loading={isFetching}
                      dataSource={cards?.list ?? []}
                      rowSelection={{
                        selectedRowKeys: selected,
                        onChange: setSelected,
                        getCheckboxProps: (c) => ({ disabled: c.state !== "available" }),
                      }}
                      pagination={{
                        current: page.page,
                        pageSize: page.pageSize,
                        total: cards?.total ?? 0,
                        pageSizeOptions: PAGE_SIZES.map(String),
                        showSizeChanger: true,
                        showTotal: (total) => t("list.total", { total }),
                        onChange: (p, s) => setPage({ page: s === page.pageSize ? p : 1, pageSize: s }),
                      }}
                      columns={[
                        { title: "ID", dataIndex: "id", width: 90 },
                        { title: t("catalog.import.cardNumber"), dataIndex: "cardNumber" },
                        { title: t("catalog.import.cardSecret"), dataIndex: "cardSecret" },
                        {
                          title: t("catalog.import.expiry"),
                          dataIndex: "expiryDate",
                          render: (v: string | null) => v ?? "-",
                        },
                        { title: t("catalog.import.batch"), dataIndex: "batchId", width: 80 },
                        {
                          title: t("catalog.field.state"),
                          dataIndex: "state",
                          render: (s: CardState) => t(`catalog.cardState.${s}`),
                        },
                      ]}
                    />
                  </Flex>
                ),
              },
              {
                key: "records",
                label: t("catalog.import.records"),
                children: (
                  <Table<CardBatch>
                    rowKey="id"
                    size="small"
                    dataSource={batches?.list ?? []}
                    columns={batchColumns}
                    pagination={false}
                  />
                ),
              },
            ]}
          />
        </Card>
      )}
    </Flex>
  );
}
