import { useQuery } from "@tanstack/react-query";
import { Alert, Button, Card, Descriptions, Flex, Steps, Table, Tabs, Timeline, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { CODE, type CallbackTestReply, type DeveloperExamples } from "@tessera/contracts";
import { unwrap } from "../../api/errors";
import { http, tokens } from "../../api/http";
import { DeveloperConsole } from "./Console";

/** The open API's refusals (spec 01 §8 envelope; the server's message keys in the interface language). */
const ERRORS = [
  { http: 401, code: CODE.UNAUTHORIZED, key: "openapi.unsigned", retry: false },
  { http: 401, code: CODE.UNAUTHORIZED, key: "openapi.unknownKey", retry: false },
  { http: 401, code: CODE.UNAUTHORIZED, key: "openapi.staleTimestamp", retry: false },
  { http: 401, code: CODE.UNAUTHORIZED, key: "openapi.badSignature", retry: false },
  { http: 401, code: CODE.UNAUTHORIZED, key: "openapi.replayedNonce", retry: false },
  { http: 403, code: CODE.FORBIDDEN, key: "openapi.noPermission", retry: false },
  { http: 403, code: CODE.FORBIDDEN, key: "openapi.ipNotAllowed", retry: false },
  { http: 400, code: CODE.INVALID_PARAMETER, key: "validation.invalidParameter", retry: false },
  { http: 409, code: CODE.CONFLICT, key: "order.orderNoReused", retry: false },
  { http: 429, code: CODE.TOO_MANY_REQUESTS, key: "error.tooManyRequests", retry: true },
] as const;
const CHANGES = ["v1_4", "v1_3", "v1_2", "v1_1", "v1_0"] as const;

function Signing() {
  const { t } = useTranslation();
  const { data } = useQuery({
    queryKey: ["developer", "examples"],
    queryFn: async () =>
      unwrap(await http.get<DeveloperExamples>("/api/card-public/developer/examples", { auth: false })),
  });
  if (!data) return null;
  const w = data.worked;
  return (
    <Flex vertical gap={16}>
      <Typography.Paragraph>{t("developer.signing.intro")}</Typography.Paragraph>
      <Descriptions bordered size="small" column={1} title={t("developer.signing.worked")}>
        <Descriptions.Item label="secret">{w.secret}</Descriptions.Item>
        <Descriptions.Item label="method / path">{`${w.method} ${w.pathWithQuery}`}</Descriptions.Item>
        <Descriptions.Item label="X-Timestamp / X-Nonce">{`${w.timestamp} / ${w.nonce}`}</Descriptions.Item>
        <Descriptions.Item label="body">
          <Typography.Text code>{w.body}</Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t("developer.signing.bodyHash")}>
          <Typography.Text code>{w.bodyHash}</Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t("developer.signing.canonical")}>
          <pre style={{ margin: 0 }}>{w.canonical}</pre>
        </Descriptions.Item>
        <Descriptions.Item label="X-Signature">
          <Typography.Text code copyable data-testid="worked-signature">
            {w.signature}
          </Typography.Text>
        </Descriptions.Item>
      </Descriptions>
      <Tabs
        items={data.examples.map((e) => ({
          key: e.file,
          label: e.language,
          children: (
            <Flex vertical gap={8}>
              <Typography.Text type="secondary">{t("developer.signing.run", { command: e.run })}</Typography.Text>
              <pre style={{ background: "#0b1021", color: "#e6e6e6", padding: 16, borderRadius: 8, overflow: "auto" }}>
                {e.source}
              </pre>
            </Flex>
          ),
        }))}
      />
    </Flex>
  );
}

function CallbackTester() {
  const { t } = useTranslation();
  const [result, setResult] = useState<CallbackTestReply | null>(null);
  const [busy, setBusy] = useState(false);
  const signedIn = tokens.getToken("domestic") !== null;
  const run = async () => {
    setBusy(true);
    try {
      const r = await http.post<CallbackTestReply>("/api/card-user/developer/callbackTest", {});
      if (r?.ok) setResult(r.data);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Flex vertical gap={16}>
      <Typography.Paragraph>{t("developer.callback.intro")}</Typography.Paragraph>
      {!signedIn && <Alert type="warning" showIcon message={t("developer.callback.signIn")} />}
      <div>
        <Button
          type="primary"
          disabled={!signedIn}
          loading={busy}
          onClick={() => void run()}
          data-testid="callback-test"
        >
          {t("developer.callback.send")}
        </Button>
      </div>
      {result && (
        <Descriptions bordered size="small" column={1}>
          <Descriptions.Item label="URL">{result.url}</Descriptions.Item>
          <Descriptions.Item label={t("developer.callback.headers")}>
            <pre style={{ margin: 0 }}>
              {Object.entries(result.sent.headers)
                .map(([k, v]) => `${k}: ${v}`)
                .join("\n")}
            </pre>
          </Descriptions.Item>
          <Descriptions.Item label={t("developer.callback.body")}>
            <Typography.Text code>{result.sent.body}</Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t("developer.callback.reply")}>
            {result.error ? (
              <Typography.Text type="danger">{result.error}</Typography.Text>
            ) : (
              `HTTP ${result.status ?? "-"} · ${result.elapsedMs} ms`
            )}
          </Descriptions.Item>
        </Descriptions>
      )}
    </Flex>
  );
}

/**
 * `/Developer`: the portal for merchants integrating the open purchase API — getting started, signing
 * (the worked example signed by the server, examples in several languages that a test runs), a request
 * console that signs real calls in the browser with the merchant's own key, the callback tester, the
 * error codes and the changelog.
 */
export default function Developer() {
  const { t } = useTranslation();
  const start = ["permission", "credentials", "allowlist", "sign", "callback"] as const;
  return (
    <Flex vertical gap={16} style={{ maxWidth: 1100, margin: "24px auto", padding: "0 16px", width: "100%" }}>
      <Typography.Title level={2} style={{ margin: 0 }}>
        {t("developer.title")}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t("developer.subtitle")}</Typography.Paragraph>
      <Card variant="borderless">
        <Tabs
          items={[
            {
              key: "start",
              label: t("developer.tab.start"),
              children: (
                <Steps
                  direction="vertical"
                  current={-1}
                  items={start.map((s) => ({
                    title: t(`developer.start.${s}.title`),
                    description: t(`developer.start.${s}.body`),
                  }))}
                />
              ),
            },
            { key: "signing", label: t("developer.tab.signing"), children: <Signing /> },
            { key: "console", label: t("developer.tab.console"), children: <DeveloperConsole /> },
            { key: "callback", label: t("developer.tab.callback"), children: <CallbackTester /> },
            {
              key: "errors",
              label: t("developer.tab.errors"),
              children: (
                <Table
                  rowKey="key"
                  pagination={false}
                  dataSource={[...ERRORS]}
                  columns={[
                    { title: "HTTP", dataIndex: "http", width: 90 },
                    { title: "code", dataIndex: "code", width: 90 },
                    {
                      title: t("developer.errors.message"),
                      dataIndex: "key",
                      render: (k: string) => t(k, { ns: "msg", field: "goodsId" }),
                    },
                    {
                      title: t("developer.errors.retry"),
                      dataIndex: "retry",
                      render: (r: boolean) => t(r ? "developer.errors.retryable" : "developer.errors.final"),
                    },
                  ]}
                  footer={() => t("developer.errors.footer")}
                />
              ),
            },
            {
              key: "changelog",
              label: t("developer.tab.changelog"),
              children: <Timeline items={CHANGES.map((c) => ({ children: t(`developer.changes.${c}`) }))} />,
            },
          ]}
        />
      </Card>
    </Flex>
  );
}
