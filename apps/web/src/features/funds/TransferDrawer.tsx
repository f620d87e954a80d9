import {
  App,
  Alert,
  Button,
  Card,
  Drawer,
  Flex,
  Form,
  Input,
  Modal,
  Space,
  Tag,
  Typography,
  type TableColumnsType,
} from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { TRANSFER_STATES, type Currency, type Transfer, type TransferState } from "@tessera/contracts";
import {
  checkTransferTarget,
  newRequestKey,
  transfersQuery,
  useApplyTransitAuth,
  useConfirmTransitAuth,
  useCreateTransfer,
  useDecideTransfer,
  useTransitAuth,
} from "./api";
import { CodeButton } from "../../ui/form/CodeButton";
import { reportFailure } from "../../ui/form/serverError";
import { useMessageText } from "../../ui/form/useZodRules";
import { ListPage } from "../../ui/list/ListPage";
import { CURRENCY_SYMBOLS, formatMoney, parseMoney } from "../../ui/money";
import { formatTime } from "../../ui/time";

const STATE_COLOR: Record<TransferState, string> = { created: "processing", refused: "error", completed: "success" };

/** Authorising outgoing transfers once, with an SMS code to the user's bound phone. */
function AuthoriseCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const apply = useApplyTransitAuth();
  const confirm = useConfirmTransitAuth();
  const [code, setCode] = useState("");
  const [sentTo, setSentTo] = useState<string | null>(null);
  const send = async (): Promise<number | null> => {
    const result = await apply.mutateAsync();
    if (!result?.ok) {
      if (result) void message.error(result.msg);
      return null;
    }
    setSentTo(result.data.phone);
    return result.data.resendIn;
  };
  const submit = async () => {
    const result = await confirm.mutateAsync(code.trim());
    if (result?.ok) void message.success(t("transfer.authorised"));
    else if (result) void message.error(result.msg);
  };
  return (
    <Alert
      type="warning"
      showIcon
      title={t("transfer.authTitle")}
      description={
        <Flex vertical gap={8}>
          <span>{sentTo ? t("transfer.codeSent", { phone: sentTo }) : t("transfer.authHint")}</span>
          <Space.Compact style={{ maxWidth: 360 }}>
            <Input
              value={code}
              onChange={(e) => setCode(e.target.value)}
              placeholder={t("home.smsCodePlaceholder")}
              maxLength={8}
              data-testid="transit-code"
            />
            <CodeButton onSend={send} />
          </Space.Compact>
          <Button
            type="primary"
            onClick={() => void submit()}
            disabled={!code.trim()}
            loading={confirm.isPending}
            style={{ alignSelf: "flex-start" }}
          >
            {t("transfer.authorise")}
          </Button>
        </Flex>
      }
    />
  );
}

interface NewValues {
  toMerchantId: string;
  amountText: string;
  contractNo?: string;
  remark?: string;
}

/** A new transfer: the recipient is checked first and shown by name before anything is sent. */
function NewTransfer({ currency }: { currency: Currency }) {
  const { t } = useTranslation();
  const text = useMessageText();
  const { message, modal } = App.useApp();
  const [form] = Form.useForm<NewValues>();
  const create = useCreateTransfer();
  const [requestKey, setRequestKey] = useState(newRequestKey);
  const fields = ["toMerchantId", "amount", "contractNo", "remark"] as const;

  const submit = async (v: NewValues) => {
    const amount = parseMoney(v.amountText, currency);
    if (!amount) return;
    const target = await checkTransferTarget(v.toMerchantId.trim());
    if (reportFailure(target, form, fields, (m) => void message.error(m)) || !target?.ok) return;
    modal.confirm({
      // Above the drawer this form lives in.
      zIndex: 1200,
      title: t("transfer.confirmTitle"),
      content: t("transfer.confirmBody", {
        amount: formatMoney({ amount, currency }),
        name: target.data.merchantName,
        id: target.data.merchantId,
      }),
      onOk: () =>
        create
          .mutateAsync({
            toMerchantId: v.toMerchantId.trim(),
            amount,
            remark: v.remark?.trim() || undefined,
            contractNo: v.contractNo?.trim() || undefined,
            requestKey,
          })
          .then((result) => {
            if (reportFailure(result, form, fields, (m) => void message.error(m))) return;
            void message.success(t("transfer.created"));
            form.resetFields();
            setRequestKey(newRequestKey());
          }),
    });
  };

  return (
    <Form<NewValues>
      form={form}
      layout="inline"
      onFinish={(v) => void submit(v)}
      requiredMark={false}
      style={{ rowGap: 12 }}
    >
      <Form.Item
        name="toMerchantId"
        rules={[{ required: true, whitespace: true, message: text("transfer.targetEmpty") }]}
      >
        <Input
          placeholder={t("transfer.toMerchantId")}
          inputMode="numeric"
          maxLength={18}
          style={{ width: 170 }}
          data-testid="transfer-to"
        />
      </Form.Item>
      <Form.Item
        name="amountText"
        rules={[
          { required: true, whitespace: true, message: text("funds.amountEmpty") },
          {
            validator: (_r, v: string | undefined) =>
              !v || (parseMoney(v, currency) ?? 0) > 0
                ? Promise.resolve()
                : Promise.reject(new Error(text("funds.amountInvalid"))),
          },
        ]}
      >
        <Input
          prefix={CURRENCY_SYMBOLS[currency]}
          placeholder="0.00"
          inputMode="decimal"
          style={{ width: 150 }}
          data-testid="transfer-amount"
        />
      </Form.Item>
      <Form.Item name="contractNo">
        <Input placeholder={t("transfer.contractNo")} maxLength={40} style={{ width: 160 }} />
      </Form.Item>
      <Form.Item name="remark">
        <Input placeholder={t("transfer.remark")} maxLength={200} style={{ width: 200 }} />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={create.isPending} data-testid="transfer-create">
        {t("transfer.create")}
      </Button>
    </Form>
  );
}

function RefuseDialog({ transfer, onClose }: { transfer: Transfer; onClose: () => void }) {
  const { t } = useTranslation();
  const text = useMessageText();
  const decide = useDecideTransfer();
  const [form] = Form.useForm<{ reason: string }>();
  const submit = async ({ reason }: { reason: string }) => {
    const result = await decide.mutateAsync({ id: transfer.id, decision: "refuse", reason: reason.trim() });
    if (!reportFailure(result, form, ["reason"], () => undefined)) onClose();
  };
  return (
    <Modal open title={t("transfer.refuse")} onCancel={onClose} footer={null} destroyOnHidden>
      <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} requiredMark={false}>
        <Form.Item
          name="reason"
          label={t("funds.reason")}
          rules={[{ required: true, whitespace: true, message: text("funds.reasonEmpty") }]}
        >
          <Input.TextArea rows={3} maxLength={200} showCount />
        </Form.Item>
        <Button type="primary" danger htmlType="submit" block loading={decide.isPending}>
          {t("transfer.refuse")}
        </Button>
      </Form>
    </Modal>
  );
}

/**
 * Fund transfer between merchants (spec 01 §2 screen 6, supplier home): authorise once, send a transfer
 * (optionally under a contract), and accept or refuse the ones received. Money moves on acceptance.
 */
export function TransferDrawer({
  open,
  onClose,
  currency,
}: {
  open: boolean;
  onClose: () => void;
  currency: Currency;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { data: auth } = useTransitAuth();
  const decide = useDecideTransfer();
  const [refusing, setRefusing] = useState<Transfer | null>(null);
  const accept = async (tr: Transfer) => {
    const result = await decide.mutateAsync({ id: tr.id, decision: "accept" });
    if (result?.ok) void message.success(t("transfer.accepted"));
    else if (result) void message.error(result.msg);
  };
  const columns: TableColumnsType<Transfer> = [
    {
      title: t("withdraw.col.time"),
      dataIndex: "createdAt",
      width: 150,
      render: (v: string) => formatTime(v),
    },
    {
      title: t("transfer.direction"),
      dataIndex: "direction",
      width: 80,
      render: (v: Transfer["direction"]) => <Tag color={v === "out" ? "orange" : "blue"}>{t(`transfer.dir.${v}`)}</Tag>,
    },
    {
      title: t("transfer.counterpart"),
      key: "who",
      render: (_: unknown, r) =>
        r.direction === "out"
          ? `${r.toMerchantName} (${r.toMerchantId})`
          : `${r.fromMerchantName} (${r.fromMerchantId})`,
    },
    {
      title: t("withdraw.col.amount"),
      dataIndex: "amount",
      align: "right",
      render: (v: Transfer["amount"]) => formatMoney(v),
    },
    {
      title: t("transfer.contractCol"),
      dataIndex: "contractNo",
      render: (v: string | null, r) => [v, r.remark].filter(Boolean).join(" · ") || "-",
    },
    {
      title: t("withdraw.col.state"),
      dataIndex: "state",
      render: (v: TransferState, r) => (
        <Space size={4}>
          <Tag color={STATE_COLOR[v]}>{t(`transfer.state.${v}`)}</Tag>
          {r.refuseReason && <Typography.Text type="secondary">{r.refuseReason}</Typography.Text>}
        </Space>
      ),
    },
    {
      title: t("funds.col.actions"),
      key: "actions",
      render: (_: unknown, r) =>
        r.direction === "in" && r.state === "created" ? (
          <Space size={0}>
            <Button type="link" size="small" onClick={() => void accept(r)} data-testid={`accept-${r.id}`}>
              {t("transfer.accept")}
            </Button>
            <Button type="link" size="small" danger onClick={() => setRefusing(r)}>
              {t("transfer.refuse")}
            </Button>
          </Space>
        ) : null,
    },
  ];
  return (
    <Drawer
      open={open}
      onClose={onClose}
      size={1040}
      zIndex={1100}
      title={t("transfer.title")}
      destroyOnHidden
      styles={{ body: { background: "var(--ant-color-bg-layout)" } }}
    >
      {open && (
        <ListPage<Transfer>
          header={
            auth?.authorised ? (
              <Card variant="borderless" title={t("transfer.create")}>
                <NewTransfer currency={currency} />
              </Card>
            ) : (
              <AuthoriseCard />
            )
          }
          rowKey="id"
          columns={columns}
          search={{
            select: {
              keys: [
                {
                  value: "state",
                  label: t("withdraw.col.state"),
                  options: TRANSFER_STATES.map((s) => ({ value: s, label: t(`transfer.state.${s}`) })),
                },
              ],
            },
          }}
          query={(state) =>
            transfersQuery({
              page: state.page,
              pageSize: state.pageSize,
              state: typeof state.values.selVal === "string" ? state.values.selVal : undefined,
            })
          }
        />
      )}
      {refusing && <RefuseDialog transfer={refusing} onClose={() => setRefusing(null)} />}
    </Drawer>
  );
}
