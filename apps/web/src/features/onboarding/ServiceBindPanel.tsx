import { App, Button, Card, Descriptions, Empty, Flex, Form, Input, Popconfirm, Skeleton } from "antd";
import { useTranslation } from "react-i18next";
import { serviceBindReq, type ServiceKind } from "@tessera/contracts";
import { useBindProvider, useServiceBinding, useUnbindProvider } from "./api";
import { useAction } from "../../ui/form/useAction";
import { useZodRules } from "../../ui/form/useZodRules";
import { PageHint } from "../../ui/PageHint";
import { formatTime } from "../../ui/time";

/**
 * Service-provider binding (sale/ServiceBind, business/ServiceBind): the merchant enters its service
 * provider's merchant ID; the provider then sees this merchant in its lists — as a brand (BrandsList,
 * which it may enter with a brand token) when bound from the brand owner's area, as a merchant
 * (VendorList) when bound from the seller's area. Either side can unbind.
 */
export function ServiceBindPanel({ pageId, kind }: { pageId: string; kind: ServiceKind }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { data: binding, isPending } = useServiceBinding(kind);
  const bind = useBindProvider(kind);
  const unbind = useUnbindProvider(kind);
  const [form] = Form.useForm<{ providerId: string }>();
  const rule = useZodRules(serviceBindReq);

  const { submit } = useAction(form, {
    run: ({ providerId }: { providerId: string }) => bind.mutateAsync(providerId.trim()),
    fields: ["providerId"],
    success: t("onboarding.service.bound"),
    then: () => form.resetFields(),
  });

  return (
    <Flex vertical gap={16}>
      <PageHint id={pageId} title={t("onboarding.service.hintTitle")} description={t("onboarding.service.hint")} />
      <Card variant="borderless" title={t("onboarding.service.current")}>
        {isPending ? (
          <Skeleton active />
        ) : binding ? (
          <Flex vertical gap={16} align="flex-start">
            <Descriptions column={1} size="small" data-testid="service-binding">
              <Descriptions.Item label={t("onboarding.service.providerId")}>{binding.providerId}</Descriptions.Item>
              <Descriptions.Item label={t("onboarding.service.providerName")}>{binding.providerName}</Descriptions.Item>
              <Descriptions.Item label={t("onboarding.service.kind")}>
                {t(`onboarding.service.kinds.${binding.kind}`)}
              </Descriptions.Item>
              <Descriptions.Item label={t("onboarding.service.boundAt")}>
                {formatTime(binding.boundAt)}
              </Descriptions.Item>
            </Descriptions>
            <Popconfirm
              title={t("onboarding.service.unbindConfirm")}
              okText={t("onboarding.confirm")}
              cancelText={t("onboarding.cancel")}
              onConfirm={() => {
                void unbind
                  .mutateAsync(binding.id)
                  .then((r) => r?.ok && void message.success(t("onboarding.service.unbound")));
              }}
            >
              <Button danger loading={unbind.isPending}>
                {t("onboarding.service.unbind")}
              </Button>
            </Popconfirm>
          </Flex>
        ) : (
          <Flex vertical gap={16}>
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("onboarding.service.none")} />
            <Form form={form} layout="inline" onFinish={(v) => void submit(v)} requiredMark={false}>
              <Form.Item name="providerId" label={t("onboarding.service.providerId")} rules={[rule("providerId")]}>
                <Input maxLength={18} style={{ width: 220 }} data-testid="provider-id" />
              </Form.Item>
              <Button type="primary" htmlType="submit" loading={bind.isPending}>
                {t("onboarding.service.bind")}
              </Button>
            </Form>
          </Flex>
        )}
      </Card>
    </Flex>
  );
}
