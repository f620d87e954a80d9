import { Alert, Button, Descriptions, Form, Input, Select, Space, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { currentLang } from "../../i18n";
import { newNonce, signRequest } from "./sign";

const ENDPOINTS = [
  { key: "balance", method: "GET", path: "/api/card-api/openapi/balance", body: "" },
  { key: "product", method: "GET", path: "/api/card-api/openapi/product?page=1&pageSize=20", body: "" },
  { key: "orderQuery", method: "GET", path: "/api/card-api/openapi/order?orderNo=ORDER-0001", body: "" },
  {
    key: "order",
    method: "POST",
    path: "/api/card-api/openapi/order",
    body: '{"goodsId":"1","quantity":1,"orderNo":"ORDER-0001"}',
  },
] as const;

interface Sent {
  canonical: string;
  signature: string;
  headers: Record<string, string>;
  status: number;
  reply: string;
}

/**
 * The request console: the merchant's own app key and secret (kept in this page only, never sent) sign a
 * real call in the browser, which goes to the open API and acts on the merchant's own account.
 */
export function DeveloperConsole() {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ appKey: string; secret: string; endpoint: string; path: string; body: string }>();
  const [sent, setSent] = useState<Sent | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const pick = (key: string) => {
    const e = ENDPOINTS.find((x) => x.key === key);
    if (e) form.setFieldsValue({ path: e.path, body: e.body });
  };
  const send = async (v: { appKey: string; secret: string; endpoint: string; path: string; body: string }) => {
    const e = ENDPOINTS.find((x) => x.key === v.endpoint);
    if (!e) return;
    setBusy(true);
    setError(null);
    try {
      const timestamp = String(Math.floor(Date.now() / 1000));
      const nonce = newNonce();
      const body = e.method === "GET" ? "" : v.body;
      const signed = await signRequest({
        secret: v.secret,
        method: e.method,
        pathWithQuery: v.path,
        timestamp,
        nonce,
        body,
      });
      const headers: Record<string, string> = {
        "x-app-key": v.appKey.trim(),
        "x-timestamp": timestamp,
        "x-nonce": nonce,
        "x-signature": signed.signature,
      };
      if (body) headers["content-type"] = "application/json";
      // The reply's messages in the page's language (the header is not signed).
      const res = await fetch(v.path, {
        method: e.method,
        headers: { ...headers, lang: currentLang() },
        ...(body && { body }),
      });
      const text = await res.text();
      let reply = text;
      try {
        reply = JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        // not JSON: shown as it came
      }
      setSent({ canonical: signed.canonical, signature: signed.signature, headers, status: res.status, reply });
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Space direction="vertical" style={{ width: "100%" }} size="middle">
      <Alert type="info" showIcon message={t("developer.console.note")} />
      <Form
        form={form}
        layout="vertical"
        initialValues={{ endpoint: "balance", path: ENDPOINTS[0].path, body: "" }}
        onFinish={(v) => void send(v)}
        style={{ maxWidth: 760 }}
      >
        <Space wrap style={{ width: "100%" }} align="start">
          <Form.Item
            name="appKey"
            label="App Key"
            rules={[{ required: true, whitespace: true, message: t("developer.console.appKey") }]}
          >
            <Input style={{ width: 300 }} autoComplete="off" data-testid="console-appkey" />
          </Form.Item>
          <Form.Item
            name="secret"
            label={t("developer.console.secret")}
            rules={[{ required: true, message: t("developer.console.secret") }]}
          >
            <Input.Password style={{ width: 300 }} autoComplete="off" data-testid="console-secret" />
          </Form.Item>
        </Space>
        <Form.Item name="endpoint" label={t("developer.console.endpoint")}>
          <Select
            onChange={pick}
            options={ENDPOINTS.map((e) => ({
              value: e.key,
              label: `${e.method} ${e.path.split("?")[0] ?? e.path} · ${t(`developer.endpoint.${e.key}`)}`,
            }))}
            data-testid="console-endpoint"
          />
        </Form.Item>
        <Form.Item
          name="path"
          label={t("developer.console.path")}
          rules={[{ required: true, pattern: /^\/api\/card-api\/openapi\//, message: t("developer.console.path") }]}
        >
          <Input data-testid="console-path" />
        </Form.Item>
        <Form.Item name="body" label={t("developer.console.body")}>
          <Input.TextArea rows={3} data-testid="console-body" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy} data-testid="console-send">
          {t("developer.console.send")}
        </Button>
      </Form>
      {error && <Alert type="error" showIcon message={error} />}
      {sent && (
        <Descriptions bordered size="small" column={1} data-testid="console-result">
          <Descriptions.Item label={t("developer.console.canonical")}>
            <Typography.Text code style={{ whiteSpace: "pre-wrap" }}>
              {sent.canonical}
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label="X-Signature">
            <Typography.Text code copyable>
              {sent.signature}
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t("developer.console.status")}>
            <span data-testid="console-status">{sent.status}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t("developer.console.reply")}>
            <pre style={{ margin: 0, maxHeight: 320, overflow: "auto" }} data-testid="console-reply">
              {sent.reply}
            </pre>
          </Descriptions.Item>
        </Descriptions>
      )}
    </Space>
  );
}
