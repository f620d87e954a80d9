import { useQuery } from "@tanstack/react-query";
import { Alert, Button, Card, Form, Input, List, Result, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useParams, useSearchParams } from "react-router";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";

/**
 * `/mp-platform/:platform/authorize`: the LOCAL social platform's consent page (what WeChat's
 * componentloginpage or Douyin's authorisation link shows): the administrator names the mini-program
 * and authorises it to the third-party platform; the page returns to the back-office with auth_code.
 */
export default function MpAuthorize() {
  const { t } = useTranslation();
  const { platform = "wechat" } = useParams();
  const [search] = useSearchParams();
  const code = search.get("pre_auth_code") ?? "";
  const [form] = Form.useForm<{ nickName: string }>();
  const [error, setError] = useState<string | null>(null);
  const { data: info } = useQuery({
    queryKey: ["mp-preauth", platform, code],
    queryFn: async () =>
      unwrap(
        await http.get<{
          expired: boolean;
          used: boolean;
          scopes: string[];
          accountType?: "miniprogram" | "official" | "life";
        }>(`/api/mp-platform/${platform}/preauth/${encodeURIComponent(code)}`, { auth: false }),
      ),
    enabled: code.length > 0,
  });
  const consent = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    const r = await http.post<{ redirect: string }>(
      `/api/mp-platform/${platform}/preauth/${encodeURIComponent(code)}/authorize`,
      v,
      { auth: false, toast: false },
    );
    if (!r) return;
    if (!r.ok) return setError(r.msg);
    window.location.assign(r.data.redirect);
  };
  const name = platform === "douyin" ? t("mp.douyin") : t("mp.wechat");
  if (info && (info.expired || info.used)) return <Result status="warning" title={t("msg:mp.preauthExpired")} />;
  return (
    <div style={{ maxWidth: 420, margin: "40px auto", padding: 16 }}>
      <Card title={t("mp.consent.title", { platform: name })}>
        <Typography.Paragraph type="secondary">{t("mp.consent.local")}</Typography.Paragraph>
        <Typography.Paragraph>{t("mp.consent.scopes")}</Typography.Paragraph>
        <List
          size="small"
          dataSource={info?.scopes ?? []}
          renderItem={(s) => <List.Item>{s}</List.Item>}
          style={{ marginBottom: 16 }}
        />
        <Form form={form} layout="vertical">
          <Form.Item
            name="nickName"
            label={t(
              info?.accountType === "official"
                ? "mp.consent.officialName"
                : info?.accountType === "life"
                  ? "mp.consent.lifeName"
                  : "mp.consent.appName",
            )}
            rules={[{ required: true, whitespace: true, message: t("msg:mp.nameEmpty") }]}
          >
            <Input maxLength={30} data-testid="mp-consent-name" />
          </Form.Item>
        </Form>
        {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} />}
        <Button type="primary" block onClick={() => void consent()} data-testid="mp-consent-ok">
          {t("mp.consent.authorise")}
        </Button>
      </Card>
    </div>
  );
}
