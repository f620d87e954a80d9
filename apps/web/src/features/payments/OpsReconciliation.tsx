import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  App,
  Button,
  DatePicker,
  Flex,
  Form,
  Input,
  Modal,
  Segmented,
  Space,
  Table,
  Tag,
  Typography,
  type TableColumnsType,
} from "antd";
import type { Dayjs } from "dayjs";
import dayjs from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";
import { formatMoney } from "../../ui/money";
import { PageHint } from "../../ui/PageHint";
import { ExportButton } from "../../ui/list/useExport";
import { useMessageText } from "../../ui/form/useZodRules";
import { OpsOnly } from "../accounts/OpsOnly";

/** A difference between a provider's bill and our payments (GET /api/ops/reconciliation/differences). */
export interface Difference {
  id: string;
  provider: string;
  day: string;
  kind: "missing" | "extra" | "amount";
  entry: "payment" | "refund";
  reference: string;
  paymentNo: string;
  providerRef: string | null;
  merchantId: string | null;
  merchantName: string | null;
  ourAmount: number | null;
  billAmount: number | null;
  state: "open" | "resolved";
  resolution: string | null;
  resolvedAt: string | null;
  createdAt: string;
}
interface DifferencePage {
  total: number;
  page: number;
  pageSize: number;
  list: Difference[];
}
interface RunResult {
  provider: string;
  day: string;
  billLines: number;
  added: number;
  differences: number;
}

const BASE = "/api/ops/reconciliation";
const KEY = ["reconciliation"] as const;
const money = (amount: number | null) => (amount === null ? "—" : formatMoney({ amount, currency: "CNY" }));
const KIND_COLOR = { missing: "red", extra: "orange", amount: "gold" } as const;

function ResolveDialog({ d, onClose }: { d: Difference; onClose: () => void }) {
  const { t } = useTranslation();
  const text = useMessageText();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ reason: string }>();
  const resolve = useMutation({
    mutationFn: (reason: string) =>
      http.post<{ released: number }>(`${BASE}/differences/${d.id}/resolve`, { reason }, { toast: false }),
  });
  const submit = async ({ reason }: { reason: string }) => {
    const result = await resolve.mutateAsync(reason.trim());
    if (!result?.ok) {
      if (result) form.setFields([{ name: "reason", errors: [result.msg] }]);
      return;
    }
    void message.success(t("reconciliation.resolved", { released: result.data.released }));
    void queryClient.invalidateQueries({ queryKey: KEY });
    onClose();
  };
  return (
    <Modal
      open
      title={`${t("reconciliation.resolve")} · ${d.reference}`}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} requiredMark={false}>
        <Form.Item
          name="reason"
          label={t("reconciliation.reason")}
          rules={[{ required: true, whitespace: true, message: text("reconciliation.reasonRequired") }]}
        >
          <Input.TextArea rows={3} maxLength={500} showCount data-testid="rc-reason" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={resolve.isPending} data-testid="rc-resolve-submit">
          {t("reconciliation.resolve")}
        </Button>
      </Form>
    </Modal>
  );
}

/**
 * `/ops/Reconciliation` (issue 41, item 5): the differences between the payment providers' daily bills and
 * our payments and refunds. An open one holds its merchant's automatic payout until an operator resolves
 * it with a reason; a day can be reconciled again by hand (it adds only what is new).
 */
export default function OpsReconciliation() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [state, setState] = useState<"open" | "resolved" | "all">("open");
  const [page, setPage] = useState(1);
  const [day, setDay] = useState<Dayjs | null>(dayjs().subtract(1, "day"));
  const [resolving, setResolving] = useState<Difference | null>(null);
  const query = { page, pageSize: 20, ...(state !== "all" && { state }) };
  const list = useQuery({
    queryKey: [...KEY, query],
    queryFn: async () => unwrap(await http.get<DifferencePage>(`${BASE}/differences`, { query })),
  });
  const run = useMutation({
    mutationFn: (d: string) => http.post<RunResult[]>(`${BASE}/run`, { day: d }),
    onSuccess: (result) => {
      if (!result?.ok) return;
      for (const r of result.data) void message.success(t("reconciliation.ran", { ...r }));
      void queryClient.invalidateQueries({ queryKey: KEY });
    },
  });

  const columns: TableColumnsType<Difference> = [
    { title: t("reconciliation.col.day"), dataIndex: "day", width: 110 },
    {
      title: t("reconciliation.col.kind"),
      key: "kind",
      width: 150,
      render: (_, d) => (
        <Space size={4} wrap>
          <Tag color={KIND_COLOR[d.kind]}>{t(`reconciliation.kind.${d.kind}`)}</Tag>
          <Typography.Text type="secondary">{t(`reconciliation.entry.${d.entry}`)}</Typography.Text>
        </Space>
      ),
    },
    {
      title: t("reconciliation.col.merchant"),
      key: "merchant",
      render: (_, d) =>
        d.merchantId ? `${d.merchantName ?? ""} (${d.merchantId})` : t("reconciliation.unknownMerchant"),
    },
    { title: t("reconciliation.col.ours"), key: "ours", align: "right", render: (_, d) => money(d.ourAmount) },
    { title: t("reconciliation.col.bill"), key: "bill", align: "right", render: (_, d) => money(d.billAmount) },
    {
      title: t("reconciliation.col.reference"),
      key: "ref",
      render: (_, d) => (
        <Flex vertical>
          <Typography.Text copyable>{d.reference}</Typography.Text>
          {d.providerRef && (
            <Typography.Text type="secondary" copyable>
              {`${d.provider} ${d.providerRef}`}
            </Typography.Text>
          )}
        </Flex>
      ),
    },
    {
      title: t("reconciliation.col.state"),
      key: "state",
      render: (_, d) =>
        d.state === "open" ? (
          <Tag color="red">{t("reconciliation.state.open")}</Tag>
        ) : (
          <Flex vertical>
            <Tag color="green">{t("reconciliation.state.resolved")}</Tag>
            <Typography.Text type="secondary">{d.resolution}</Typography.Text>
          </Flex>
        ),
    },
    {
      title: t("reconciliation.col.actions"),
      key: "actions",
      fixed: "right",
      render: (_, d) =>
        d.state === "open" && (
          <Button type="link" size="small" onClick={() => setResolving(d)} data-testid={`rc-resolve-${d.id}`}>
            {t("reconciliation.resolve")}
          </Button>
        ),
    },
  ];
  return (
    <OpsOnly>
      <Flex vertical gap={16}>
        <PageHint
          id="ops.Reconciliation"
          title={t("reconciliation.hintTitle")}
          description={t("reconciliation.hint")}
        />
        <Flex wrap gap={12} justify="space-between">
          <Segmented
            value={state}
            onChange={(v) => {
              setState(v);
              setPage(1);
            }}
            options={(["open", "resolved", "all"] as const).map((s) => ({
              value: s,
              label: t(`reconciliation.state.${s}`),
            }))}
          />
          <Space wrap>
            <DatePicker
              value={day}
              onChange={setDay}
              disabledDate={(d) => !d.isBefore(dayjs(), "day")}
              allowClear={false}
              data-testid="rc-day"
            />
            <Button
              loading={run.isPending}
              disabled={!day}
              onClick={() => day && run.mutate(day.format("YYYY-MM-DD"))}
              data-testid="rc-run"
            >
              {t("reconciliation.run")}
            </Button>
            <ExportButton<Difference>
              columns={columns}
              rows={list.data?.list ?? []}
              name={document.title.split(" - ")[0] ?? ""}
            />
          </Space>
        </Flex>
        <Table<Difference>
          rowKey="id"
          size="middle"
          loading={list.isLoading}
          dataSource={list.data?.list ?? []}
          scroll={{ x: "max-content" }}
          pagination={{ current: page, pageSize: 20, total: list.data?.total ?? 0, onChange: setPage }}
          columns={columns}
        />
      </Flex>
      {resolving && <ResolveDialog d={resolving} onClose={() => setResolving(null)} />}
    </OpsOnly>
  );
}
