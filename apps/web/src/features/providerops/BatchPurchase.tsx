import { DownloadOutlined, UploadOutlined } from "@ant-design/icons";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Card, Flex, Space, Table, Tag, Typography, Upload, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type {
  BatchPurchaseLine,
  BatchPurchasePreview,
  BatchPurchaseReply,
  BatchPurchaseSummary,
  Currency,
} from "@tessera/contracts";
import { saveFile } from "../../api/http";
import { confirmMoney, moneyText } from "../../ui/confirmMoney";
import { formatMoney } from "../../ui/money";
import { PageHint } from "../../ui/PageHint";
import { previewBatchPurchase, providerOpsApi, uploadBatchPurchase } from "./api";
import { formatTime } from "../../ui/time";
import { PAGE_SIZES } from "@tessera/contracts";

/** The currency of a file that buys nothing new (its ¥0.00): a line's, else the platform's default. */
const currencyOf = (p: BatchPurchasePreview): Currency => p.lines.find((l) => l.amount)?.amount?.currency ?? "CNY";

const LINE_COLOURS: Record<BatchPurchaseLine["state"], string> = {
  ordered: "success",
  replayed: "processing",
  refused: "error",
};

/**
 * `/providers/BatchPurchase`: buying for several served purchasers at once from an xlsx (template to
 * download; columns purchaser, goods, quantity, top-up account, request key). Each line is an ordinary
 * order of that purchaser, on its own: its order or the reason it was refused shows here and in the
 * downloadable result file; the same file sent again buys nothing twice. Earlier files below. Nothing is
 * spent before the provider has seen the new orders, their units and their total, and confirmed them.
 */
export default function BatchPurchase() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const qc = useQueryClient();
  const [uploading, setUploading] = useState(false);
  const [shown, setShown] = useState<BatchPurchaseReply | null>(null);
  const [page, setPage] = useState({ page: 1, pageSize: 20 });
  const history = useQuery({ queryKey: ["providerOps", "batches", page], queryFn: () => providerOpsApi.batches(page) });

  const download = async (p: ReturnType<typeof providerOpsApi.batchTemplate>) => {
    const r = await p;
    if (r?.ok) saveFile(r.data.blob, r.data.fileName);
  };
  // The file is read and priced first; the purchasers pay only once the total is confirmed (issue 37).
  const check = async (file: File) => {
    setUploading(true);
    try {
      const r = await previewBatchPurchase(file);
      if (!r.ok) {
        void message.error(r.msg);
        return;
      }
      const p = r.data;
      const effect = [
        p.orders > 0
          ? t("providerOps.batch.confirmEffect", { orders: p.orders, units: p.units, amount: moneyText(p.totals) })
          : t("providerOps.batch.confirmNothing"),
        p.replayed > 0 ? t("providerOps.batch.confirmReplayed", { count: p.replayed }) : null,
        p.refused > 0 ? t("providerOps.batch.confirmRefused", { count: p.refused }) : null,
      ].filter((x): x is string => x !== null);
      confirmMoney(modal, {
        action: t("providerOps.batch.confirmAction"),
        amount: p.totals.length > 0 ? p.totals : [{ amount: 0, currency: currencyOf(p) }],
        effect: (
          <Flex vertical gap={4} data-testid="batch-confirm-effect">
            {effect.map((line) => (
              <span key={line}>{line}</span>
            ))}
          </Flex>
        ),
        testId: "batch-confirm",
        onOk: () => upload(file),
      });
    } finally {
      setUploading(false);
    }
  };
  const upload = async (file: File) => {
    setUploading(true);
    try {
      const r = await uploadBatchPurchase(file);
      if (!r.ok) {
        void message.error(r.msg);
        return;
      }
      setShown(r.data);
      void message.success(t("providerOps.batch.done", { ordered: r.data.ordered, refused: r.data.refused }));
      void qc.invalidateQueries({ queryKey: ["providerOps", "batches"] });
    } finally {
      setUploading(false);
    }
  };
  const open = async (id: string) => setShown(await providerOpsApi.batch(id));

  const lineColumns: TableColumnsType<BatchPurchaseLine> = [
    { title: t("providerOps.batch.row"), dataIndex: "row", width: 60 },
    { title: t("providerOps.batch.purchaser"), dataIndex: "purchaser", width: 130, ellipsis: true },
    { title: t("providerOps.batch.goodsId"), dataIndex: "goodsId", width: 90, ellipsis: true },
    { title: t("providerOps.col.quantity"), dataIndex: "quantity", width: 60, align: "right" },
    { title: t("providerOps.batch.requestKey"), dataIndex: "requestKey", width: 150, ellipsis: true },
    {
      title: t("providerOps.batch.result"),
      dataIndex: "state",
      render: (s: BatchPurchaseLine["state"], l) => (
        <Space size={4} wrap>
          <Tag color={LINE_COLOURS[s]}>{t(`providerOps.batch.state.${s}`)}</Tag>
          {l.reason && <Typography.Text type="danger">{l.reason}</Typography.Text>}
        </Space>
      ),
    },
    {
      title: t("providerOps.col.orderNo"),
      dataIndex: "orderNo",
      width: 150,
      ellipsis: true,
      render: (v: string | null) => v ?? "-",
    },
    {
      title: t("providerOps.col.amount"),
      dataIndex: "amount",
      width: 100,
      align: "right",
      render: (m: BatchPurchaseLine["amount"]) => (m ? formatMoney(m) : "-"),
    },
  ];
  const historyColumns: TableColumnsType<BatchPurchaseSummary> = [
    {
      title: t("providerOps.batch.uploadedAt"),
      dataIndex: "createdAt",
      width: 170,
      render: (v: string) => formatTime(v, { seconds: true }),
    },
    { title: t("providerOps.batch.fileName"), dataIndex: "fileName", ellipsis: true },
    { title: t("providerOps.batch.ordered"), dataIndex: "ordered", width: 100, align: "right" },
    { title: t("providerOps.batch.refused"), dataIndex: "refused", width: 100, align: "right" },
    {
      title: t("providerOps.batch.actions"),
      key: "actions",
      width: 200,
      render: (_: unknown, b) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => void open(b.id)}>
            {t("providerOps.batch.view")}
          </Button>
          <Button type="link" size="small" onClick={() => void download(providerOpsApi.batchResult(b.id))}>
            {t("providerOps.batch.downloadResult")}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <Flex vertical gap={16}>
      <PageHint
        id="providers.BatchPurchase"
        title={t("providerOps.hint.batchTitle")}
        description={t("providerOps.hint.batch")}
      />
      <Card variant="borderless">
        <Space wrap>
          <Button
            icon={<DownloadOutlined />}
            onClick={() => void download(providerOpsApi.batchTemplate())}
            data-testid="batch-template"
          >
            {t("providerOps.batch.template")}
          </Button>
          <Upload
            accept=".xlsx"
            showUploadList={false}
            beforeUpload={(file) => {
              void check(file);
              return false;
            }}
          >
            <Button type="primary" icon={<UploadOutlined />} loading={uploading} data-testid="batch-upload">
              {t("providerOps.batch.upload")}
            </Button>
          </Upload>
        </Space>
      </Card>
      {shown && (
        <Card
          variant="borderless"
          title={`${shown.fileName} · ${formatTime(shown.createdAt)}`}
          extra={
            <Button
              icon={<DownloadOutlined />}
              onClick={() => void download(providerOpsApi.batchResult(shown.id))}
              data-testid="batch-result"
            >
              {t("providerOps.batch.downloadResult")}
            </Button>
          }
        >
          <Alert
            type={shown.refused > 0 ? "warning" : "success"}
            showIcon
            style={{ marginBottom: 12 }}
            title={t("providerOps.batch.done", { ordered: shown.ordered, refused: shown.refused })}
            data-testid="batch-summary"
          />
          <Table<BatchPurchaseLine>
            rowKey="row"
            size="small"
            columns={lineColumns}
            dataSource={shown.lines}
            pagination={false}
            scroll={{ x: 940 }}
          />
        </Card>
      )}
      <Card variant="borderless" title={t("providerOps.batch.history")}>
        <Table<BatchPurchaseSummary>
          rowKey="id"
          size="small"
          columns={historyColumns}
          dataSource={history.data?.list ?? []}
          loading={history.isFetching}
          pagination={{
            current: page.page,
            pageSize: page.pageSize,
            total: history.data?.total ?? 0,
            pageSizeOptions: PAGE_SIZES.map(String),
            onChange: (p, s) => setPage({ page: p, pageSize: s }),
          }}
        />
      </Card>
    </Flex>
  );
}
