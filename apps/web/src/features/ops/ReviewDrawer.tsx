import { App, Button, Descriptions, Drawer, Flex, Form, Input, Space, Tag } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { QueueItem } from "@tessera/contracts";
import { useDecide } from "./api";
import { AuthImage } from "../onboarding/AuthImage";
import { reportFailure } from "../../ui/form/serverError";
import { formatTime } from "../../ui/time";

const STATE_COLOR = { pending: "processing", approved: "success", rejected: "error" } as const;

/** One review item: what the merchant submitted, its images, and approve / reject with a reason. */
export function ReviewDrawer({ item, onClose }: { item: QueueItem | null; onClose: () => void }) {
  const { t } = useTranslation();
  // A field's value in words: the aggregator's application state by its name, not its code (AUDITING).
  const fieldText = (key: string, value: string | null) =>
    value === null
      ? t("ops.review.longTerm")
      : key === "applyState"
        ? t(`collection.state.${value}`, { defaultValue: value })
        : value;
  const { message } = App.useApp();
  const decide = useDecide();
  const [rejecting, setRejecting] = useState(false);
  const [form] = Form.useForm<{ reason: string }>();

  const close = () => {
    setRejecting(false);
    form.resetFields();
    onClose();
  };
  const approve = async () => {
    if (!item) return;
    const r = await decide.mutateAsync({ kind: item.kind, id: item.id });
    if (r?.ok) {
      void message.success(t("ops.review.approved"));
      close();
    }
  };
  const reject = async ({ reason }: { reason: string }) => {
    if (!item) return;
    const r = await decide.mutateAsync({ kind: item.kind, id: item.id, reason });
    if (reportFailure(r, form, ["reason"], (m) => void message.error(m))) return;
    void message.success(t("ops.review.rejected"));
    close();
  };

  return (
    <Drawer
      open={item !== null}
      onClose={close}
      size="large"
      title={item ? `${t(`ops.queue.${item.kind}`, { defaultValue: item.kind })} #${item.id}` : ""}
      destroyOnHidden
    >
      {item && (
        <Flex vertical gap={16}>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t("ops.review.merchant")}>
              {item.merchantName} ({item.merchantId})
            </Descriptions.Item>
            <Descriptions.Item label={t("ops.review.state")}>
              <Tag color={STATE_COLOR[item.state]}>{t(`ops.state.${item.state}`)}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t("ops.review.submittedAt")}>
              {formatTime(item.submittedAt, { seconds: true })}
            </Descriptions.Item>
            {Object.entries(item.fields).map(([k, v]) => (
              <Descriptions.Item key={k} label={t(`ops.field.${k}`, { defaultValue: k })}>
                <span data-testid={`field-${k}`}>{fieldText(k, v)}</span>
              </Descriptions.Item>
            ))}
            {item.rejectReason && (
              <Descriptions.Item label={t("ops.review.reason")}>{item.rejectReason}</Descriptions.Item>
            )}
          </Descriptions>
          {item.documents.length > 0 && (
            <Space wrap>
              {item.documents.map((d) => (
                <Flex vertical key={d.kind} align="center" gap={4}>
                  <AuthImage
                    path={d.url}
                    alt={t(`ops.doc.${d.kind}`, { defaultValue: d.kind })}
                    width={220}
                    height={150}
                  />
                  <span>{t(`ops.doc.${d.kind}`, { defaultValue: d.kind })}</span>
                </Flex>
              ))}
            </Space>
          )}
          {item.state === "pending" &&
            (rejecting ? (
              <Form form={form} layout="vertical" onFinish={(v) => void reject(v)}>
                <Form.Item
                  name="reason"
                  label={t("ops.review.reason")}
                  rules={[{ required: true, whitespace: true, message: t("msg:review.reasonEmpty") }]}
                >
                  <Input.TextArea rows={3} maxLength={500} showCount data-testid="reject-reason-input" />
                </Form.Item>
                <Space>
                  <Button
                    danger
                    type="primary"
                    htmlType="submit"
                    loading={decide.isPending}
                    data-testid="reject-confirm"
                  >
                    {t("ops.review.confirmReject")}
                  </Button>
                  <Button onClick={() => setRejecting(false)}>{t("ops.cancel")}</Button>
                </Space>
              </Form>
            ) : (
              <Space>
                <Button type="primary" onClick={() => void approve()} loading={decide.isPending} data-testid="approve">
                  {t("ops.review.approve")}
                </Button>
                <Button danger onClick={() => setRejecting(true)} data-testid="reject">
                  {t("ops.review.reject")}
                </Button>
              </Space>
            ))}
        </Flex>
      )}
    </Drawer>
  );
}
