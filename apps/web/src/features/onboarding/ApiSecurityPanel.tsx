import { EyeOutlined, KeyOutlined, ReloadOutlined } from "@ant-design/icons";
import {
  App,
  Alert,
  Button,
  Card,
  Descriptions,
  Flex,
  Form,
  Input,
  Modal,
  Segmented,
  Skeleton,
  Space,
  Tag,
  Typography,
} from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ApiSecretReply } from "@tessera/contracts";
import { useSendSmsCode } from "../accounts/api";
import { useUserInfo } from "../../api/common";
import { useApiInfo, useApplyApi, useProfile, useResetSecret, useSetApiIp, useViewSecret } from "./api";
import { CodeField, useCodeSender } from "../../ui/form/CodeField";
import { reportFailure } from "../../ui/form/serverError";
import { PageHint } from "../../ui/PageHint";
import { CallbackLog } from "../purchasing/CallbackLog";
import { formatTime } from "../../ui/time";

type SecretAction = "view" | "reset";

type Proof = "password" | "sms";

/**
 * Re-enter the login password to view or reset the secret — or, to view it, an SMS code sent to the
 * user's own bound mobile number; the secret is then shown once.
 */
function SecretDialog({ action, onClose }: { action: SecretAction | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ password?: string; phone?: string; smsCode?: string }>();
  const view = useViewSecret();
  const reset = useResetSecret();
  const sendSms = useSendSmsCode();
  const { data: me } = useUserInfo();
  const [shown, setShown] = useState<ApiSecretReply | null>(null);
  const [proof, setProof] = useState<Proof>("password");
  const bySms = action === "view" && proof === "sms";
  const onSend = useCodeSender(form, "phone", (phone) => sendSms.mutateAsync({ phone, scene: "viewApiSecret" }));

  const close = () => {
    setShown(null);
    setProof("password");
    form.resetFields();
    onClose();
  };
  const confirm = async (v: { password?: string; smsCode?: string }) => {
    const result = bySms
      ? await view.mutateAsync({ smsCode: (v.smsCode ?? "").trim() })
      : await (action === "reset" ? reset : view).mutateAsync({ password: v.password ?? "" });
    if (reportFailure(result, form, bySms ? ["smsCode"] : ["password"], (m) => void message.error(m))) return;
    if (result?.ok) setShown(result.data);
  };

  return (
    <Modal
      open={action !== null}
      title={action === "reset" ? t("onboarding.api.resetTitle") : t("onboarding.api.viewTitle")}
      onCancel={close}
      maskClosable={false}
      destroyOnHidden
      footer={
        shown ? (
          <Button type="primary" onClick={close}>
            {t("onboarding.api.done")}
          </Button>
        ) : (
          <Space>
            <Button onClick={close}>{t("onboarding.cancel")}</Button>
            <Button
              type="primary"
              danger={action === "reset"}
              loading={view.isPending || reset.isPending}
              onClick={() => form.submit()}
              data-testid="secret-confirm"
            >
              {t("onboarding.confirm")}
            </Button>
          </Space>
        )
      }
    >
      {shown ? (
        <Flex vertical gap={12}>
          <Alert type="warning" showIcon title={t("onboarding.api.shownOnce")} />
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label="App key">
              <Typography.Text copyable code>
                {shown.appKey}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label="Secret">
              <Typography.Text copyable code data-testid="api-secret">
                {shown.secret}
              </Typography.Text>
            </Descriptions.Item>
          </Descriptions>
        </Flex>
      ) : (
        <Form form={form} layout="vertical" onFinish={(v) => void confirm(v)} requiredMark={false}>
          {action === "reset" && (
            <Alert style={{ marginBottom: 12 }} type="warning" showIcon title={t("onboarding.api.resetWarning")} />
          )}
          {action === "view" && (
            <Form.Item label={t("onboarding.api.proof")}>
              <Segmented<Proof>
                value={proof}
                onChange={setProof}
                options={[
                  { value: "password", label: t("onboarding.api.byPassword") },
                  { value: "sms", label: t("onboarding.api.bySms") },
                ]}
                data-testid="secret-proof"
              />
            </Form.Item>
          )}
          {bySms ? (
            me?.phone ? (
              <>
                <Form.Item name="phone" label={t("onboarding.api.boundPhone")} initialValue={me.phone}>
                  <Input disabled data-testid="secret-phone" />
                </Form.Item>
                <CodeField
                  name="smsCode"
                  label={t("onboarding.api.smsCode")}
                  placeholder={t("onboarding.api.smsCodeHint")}
                  rule={{ required: true, whitespace: true, message: t("msg:validation.smsCodeEmpty") }}
                  onSend={onSend}
                />
              </>
            ) : (
              <Alert type="info" showIcon title={t("onboarding.api.bindPhoneFirst")} data-testid="secret-no-phone" />
            )
          ) : (
            <Form.Item
              name="password"
              label={t("onboarding.api.password")}
              rules={[{ required: true, message: t("msg:validation.passwordEmpty") }]}
            >
              <Input.Password autoComplete="current-password" autoFocus data-testid="secret-password" />
            </Form.Item>
          )}
        </Form>
      )}
    </Modal>
  );
}

function AccessRules({ ips, callbackUrl }: { ips: string[]; callbackUrl: string | null }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ ips: string; callbackUrl: string }>();
  const save = useSetApiIp();
  useEffect(
    () => form.setFieldsValue({ ips: ips.join("\n"), callbackUrl: callbackUrl ?? "" }),
    [ips, callbackUrl, form],
  );
  const submit = async (values: { ips: string; callbackUrl: string }) => {
    const result = await save.mutateAsync(values);
    if (reportFailure(result, form, ["ips", "callbackUrl"], (m) => void message.error(m))) return;
    void message.success(t("onboarding.api.rulesSaved"));
  };
  return (
    <Card variant="borderless" title={t("onboarding.api.rulesTitle")}>
      <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} style={{ maxWidth: 640 }}>
        <Form.Item name="ips" label={t("onboarding.api.ips")} extra={t("onboarding.api.ipsHint")}>
          <Input.TextArea rows={4} placeholder={"203.0.113.10\n2001:db8::1"} />
        </Form.Item>
        <Form.Item name="callbackUrl" label={t("onboarding.api.callbackUrl")} extra={t("onboarding.api.callbackHint")}>
          <Input placeholder="https://" maxLength={500} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t("onboarding.save")}
        </Button>
      </Form>
    </Card>
  );
}

function Apply({ verified }: { verified: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ purpose: string }>();
  const apply = useApplyApi();
  const submit = async (values: { purpose: string }) => {
    const result = await apply.mutateAsync(values);
    if (reportFailure(result, form, ["purpose"], (m) => void message.error(m))) return;
    void message.success(t("onboarding.api.applied"));
  };
  return (
    <Card variant="borderless" title={t("onboarding.api.applyTitle")}>
      {!verified && <Alert style={{ marginBottom: 12 }} type="info" showIcon title={t("msg:api.realNameRequired")} />}
      <Form
        form={form}
        layout="vertical"
        onFinish={(v) => void submit(v)}
        style={{ maxWidth: 640 }}
        disabled={!verified}
      >
        <Form.Item
          name="purpose"
          label={t("onboarding.api.purpose")}
          rules={[{ required: true, whitespace: true, message: t("onboarding.api.purposeEmpty") }]}
        >
          <Input.TextArea rows={3} maxLength={500} showCount placeholder={t("onboarding.api.purposeHint")} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={apply.isPending} data-testid="api-apply">
          {t("onboarding.api.apply")}
        </Button>
      </Form>
    </Card>
  );
}

/**
 * API security (sale/ApiSecurity, business/ApiSecurityB): request API permission (an operator opens it),
 * then the app key, the secret (shown once after a reset, or again after re-entering the password),
 * the IP allowlist and the callback URL.
 */
export function ApiSecurityPanel({ pageId }: { pageId: string }) {
  const { t } = useTranslation();
  const { data: info, isPending } = useApiInfo();
  const { data: profile } = useProfile();
  const [action, setAction] = useState<SecretAction | null>(null);
  if (isPending || !info) {
    return (
      <Card variant="borderless">
        <Skeleton active />
      </Card>
    );
  }
  const opened = info.permission === "opened";
  const request = info.request;
  return (
    <Flex vertical gap={16}>
      <PageHint id={pageId} title={t("onboarding.api.hintTitle")} description={t("onboarding.api.hint")} />
      <Card variant="borderless">
        <Space size={12} wrap>
          <Typography.Text strong>{t("onboarding.api.permission")}</Typography.Text>
          <Tag color={opened ? "success" : "default"} data-testid="api-permission">
            {t(`apiPermission.${info.permission}`)}
          </Tag>
          {request && !opened && (
            <Tag color={request.state === "pending" ? "processing" : "error"}>
              {t(`onboarding.review.${request.state}`)}
            </Tag>
          )}
        </Space>
        {request?.state === "rejected" && !opened && (
          <Alert
            style={{ marginTop: 12 }}
            type="warning"
            showIcon
            title={t("onboarding.api.rejected")}
            description={request.rejectReason}
          />
        )}
        {request?.state === "pending" && (
          <Alert style={{ marginTop: 12 }} type="info" showIcon title={t("onboarding.api.pending")} />
        )}
      </Card>
      {!opened && request?.state !== "pending" && <Apply verified={profile?.realNameState === "verified"} />}
      {opened && (
        <>
          <Card variant="borderless" title={t("onboarding.api.credentials")}>
            <Descriptions column={1} size="small" style={{ maxWidth: 640 }}>
              <Descriptions.Item label="App key">
                <Typography.Text copyable code data-testid="api-appkey">
                  {info.appKey}
                </Typography.Text>
              </Descriptions.Item>
              <Descriptions.Item label="Secret">
                <Space wrap>
                  <Typography.Text code>••••••••••••••••</Typography.Text>
                  <Button
                    size="small"
                    icon={<EyeOutlined />}
                    onClick={() => setAction("view")}
                    data-testid="secret-view"
                  >
                    {t("onboarding.api.view")}
                  </Button>
                  <Button
                    size="small"
                    danger
                    icon={<ReloadOutlined />}
                    onClick={() => setAction("reset")}
                    data-testid="secret-reset"
                  >
                    {t("onboarding.api.reset")}
                  </Button>
                </Space>
              </Descriptions.Item>
              {info.secretIssuedAt && (
                <Descriptions.Item label={t("onboarding.api.issuedAt")}>
                  <Space>
                    <KeyOutlined />
                    <span data-testid="secret-issued">{formatTime(info.secretIssuedAt, { seconds: true })}</span>
                  </Space>
                </Descriptions.Item>
              )}
            </Descriptions>
          </Card>
          <AccessRules ips={info.ipAllowlist} callbackUrl={info.callbackUrl} />
          {info.callbackUrl && <CallbackLog />}
        </>
      )}
      <SecretDialog action={action} onClose={() => setAction(null)} />
    </Flex>
  );
}
