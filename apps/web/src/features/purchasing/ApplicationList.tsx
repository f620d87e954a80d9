import { App, Button, Form, Input, Modal, Radio, Space, Tag, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { APPLICATION_STATES, type ApplicationState, type PurchaseApplication } from "@tessera/contracts";
import { applicationsQuery, useDecideApplication } from "./api";
import { useMessageText } from "../../ui/form/useZodRules";
import { ListPage } from "../../ui/list/ListPage";
import { formatMoney, parseMoney } from "../../ui/money";
import { PurchaseForm } from "./PurchaseForm";
import { formatTime } from "../../ui/time";

const STATE_COLOR: Record<ApplicationState, string> = {
  pending_review: "processing",
  rejected: "error",
  purchasing: "success",
};

/** The supplier approves with the purchaser's selling price (and a secret price), or rejects. */
function ReviewDialog({ application, onClose }: { application: PurchaseApplication; onClose: () => void }) {
  const { t } = useTranslation();
  const text = useMessageText();
  const { message } = App.useApp();
  const decide = useDecideApplication();
  const [form] = Form.useForm<{ approve: boolean; price?: string; secretPrice?: string; reason?: string }>();
  const approve = Form.useWatch("approve", form) ?? true;
  const currency = application.listPrice.currency;
  const priceRule = {
    validator: (_r: unknown, v: string | undefined) =>
      !v || (parseMoney(v, currency) ?? 0) > 0
        ? Promise.resolve()
        : Promise.reject(new Error(text("application.priceInvalid"))),
  };
  const submit = async (v: { approve: boolean; price?: string; secretPrice?: string; reason?: string }) => {
    const secret = v.secretPrice ? parseMoney(v.secretPrice, currency) : null;
    const result = await decide.mutateAsync(
      v.approve
        ? {
            id: application.id,
            approve: true,
            price: parseMoney(v.price ?? "", currency) ?? 0,
            ...(secret && { secretPrice: secret }),
          }
        : { id: application.id, approve: false, reason: v.reason?.trim() ?? "" },
    );
    if (!result?.ok) {
      if (result) void message.error(result.msg);
      return;
    }
    void message.success(t("application.decided"));
    onClose();
  };
  return (
    <Modal
      open
      title={`${application.goodsName} · ${application.purchaserName}`}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ approve: true }}
        onFinish={(v) => void submit(v)}
        requiredMark={false}
      >
        <Form.Item name="approve">
          <Radio.Group
            optionType="button"
            options={[
              { value: true, label: t("application.approve") },
              { value: false, label: t("application.reject") },
            ]}
          />
        </Form.Item>
        {approve ? (
          <>
            <Form.Item
              name="price"
              label={t("application.price")}
              extra={t("application.listPrice", { price: formatMoney(application.listPrice) })}
              rules={[{ required: true, message: text("application.priceInvalid") }, priceRule]}
            >
              <Input inputMode="decimal" placeholder="0.00" />
            </Form.Item>
            <Form.Item
              name="secretPrice"
              label={t("application.secretPrice")}
              extra={t("application.secretHint")}
              rules={[priceRule]}
            >
              <Input inputMode="decimal" placeholder="0.00" />
            </Form.Item>
          </>
        ) : (
          <Form.Item
            name="reason"
            label={t("funds.reason")}
            rules={[{ required: true, whitespace: true, message: text("funds.reasonEmpty") }]}
          >
            <Input.TextArea rows={3} maxLength={200} />
          </Form.Item>
        )}
        <Button type="primary" htmlType="submit" block loading={decide.isPending}>
          {t("common.confirm")}
        </Button>
      </Form>
    </Modal>
  );
}

/**
 * Purchase applications: the purchaser's (with a Buy action at its agreed price) or the supplier's
 * (to review and price).
 */
export function ApplicationList({ side }: { side: "purchaser" | "supplier" }) {
  const { t } = useTranslation();
  const [reviewing, setReviewing] = useState<PurchaseApplication | null>(null);
  const [buying, setBuying] = useState<PurchaseApplication | null>(null);
  const columns: TableColumnsType<PurchaseApplication> = [
    {
      title: t("application.time"),
      dataIndex: "createdAt",
      width: 150,
      render: (v: string) => formatTime(v),
    },
    { title: t("order.col.goods"), key: "goods", render: (_: unknown, a) => `${a.goodsName} (${a.goodsId})` },
    side === "purchaser"
      ? {
          title: t("order.col.supplier"),
          key: "who",
          render: (_: unknown, a: PurchaseApplication) => `${a.supplierName} (${a.supplierId})`,
        }
      : {
          title: t("order.col.purchaser"),
          key: "who",
          render: (_: unknown, a: PurchaseApplication) => `${a.purchaserName} (${a.purchaserId})`,
        },
    {
      title: t("application.listPriceCol"),
      dataIndex: "listPrice",
      align: "right",
      render: (v: PurchaseApplication["listPrice"]) => formatMoney(v),
    },
    {
      title: t("application.price"),
      dataIndex: "price",
      align: "right",
      render: (v: PurchaseApplication["price"]) => (v ? formatMoney(v) : "-"),
    },
    {
      title: t("application.secretPrice"),
      dataIndex: "secretPrice",
      align: "right",
      render: (v: PurchaseApplication["secretPrice"]) => (v ? formatMoney(v) : "-"),
    },
    {
      title: t("order.col.state"),
      dataIndex: "state",
      render: (v: ApplicationState, a) => (
        <Tag color={STATE_COLOR[v]} title={a.rejectReason ?? undefined}>
          {t(`application.state.${v}`)}
        </Tag>
      ),
    },
    {
      title: t("funds.col.actions"),
      key: "actions",
      render: (_: unknown, a) => (
        <Space size={0}>
          {side === "supplier" && a.state === "pending_review" && (
            <Button type="link" size="small" onClick={() => setReviewing(a)}>
              {t("application.review")}
            </Button>
          )}
          {side === "purchaser" && a.state === "purchasing" && (
            <Button type="link" size="small" onClick={() => setBuying(a)}>
              {t("order.buy")}
            </Button>
          )}
        </Space>
      ),
    },
  ];
  return (
    <>
      <ListPage<PurchaseApplication>
        rowKey="id"
        columns={columns}
        search={{
          select: {
            keys: [
              {
                value: "state",
                label: t("order.col.state"),
                options: APPLICATION_STATES.map((s) => ({ value: s, label: t(`application.state.${s}`) })),
              },
            ],
          },
        }}
        query={(state) =>
          applicationsQuery(
            {
              page: state.page,
              pageSize: state.pageSize,
              state: typeof state.values.selVal === "string" ? (state.values.selVal as ApplicationState) : undefined,
            },
            side,
          )
        }
      />
      {reviewing && <ReviewDialog application={reviewing} onClose={() => setReviewing(null)} />}
      {buying && (
        <Modal open title={buying.goodsName} onCancel={() => setBuying(null)} footer={null} destroyOnHidden>
          <PurchaseForm
            goods={{
              id: Number(buying.goodsId),
              price: (buying.secretPrice ?? buying.price ?? buying.listPrice).amount,
              currency: buying.listPrice.currency,
              perOrderMax: buying.perOrderMax,
              fromStock: buying.fromStock,
              ownPrice: buying.price !== null,
            }}
          />
        </Modal>
      )}
    </>
  );
}
