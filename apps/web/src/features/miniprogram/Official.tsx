import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  App,
  Button,
  Card,
  Descriptions,
  Empty,
  Form,
  Input,
  Popconfirm,
  Select,
  Space,
  Table,
  Tag,
  Typography,
  type TableColumnsType,
} from "antd";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";
import type { MpAccount, MpLifeBrand, MpOfficialReply, MpPlatformCall } from "@tessera/contracts";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";
import { reportFailure } from "../../ui/form/serverError";
import { dense, DENSE_SCROLL_X, DENSE_TABLE_LAYOUT } from "../../ui/list/denseColumns";
import { PageHint } from "../../ui/PageHint";
import { formatTime } from "../../ui/time";

const O = "/api/card-user/officialAccount";
const L = "/api/card-user/localLife";
const time = (s: string) => formatTime(s);
const STATE_COLOUR: Record<MpAccount["state"], string> = {
  authorized: "success",
  unauthorized: "warning",
  unbound: "default",
};

const officialApi = {
  get: async () => unwrap(await http.get<MpOfficialReply>(O, { overlay: false })),
  authUrl: (redirect: string) => http.get<{ url: string }>(`${O}/authUrl`, { query: { redirect } }),
  callback: (authCode: string) => http.put<MpAccount>(`${O}/authCallback`, { authCode }),
  unbind: () => http.del<{ unbound: true }>(O),
  menu: () => http.post<MpAccount>(`${O}/menu`),
  message: (body: { openId: string; templateId: string }) =>
    http.post<{ msgId: string }>(`${O}/templateMessage`, body, { toast: false }),
};
const lifeApi = {
  brands: async () => unwrap(await http.get<{ list: MpLifeBrand[] }>(`${L}/brands`, { overlay: false })).list,
  authUrl: (brandId: string, redirect: string) =>
    http.get<{ url: string }>(`${L}/authUrl`, { query: { redirect, brandId } }),
  callback: (authCode: string, brandId: string) =>
    http.put<MpAccount>(`${L}/authCallback`, { authCode, brandId: Number(brandId) }),
  unbind: (brandId: string) => http.del<{ unbound: true }>(`${L}/${brandId}`),
};

/**
 * Back from the platform's consent page (`?bind=…&auth_code=…`): runs `bind` once and clears the query.
 * Returns true while that is pending (the page loads its data after the binding, not before).
 */
function useConsentReturn(
  kind: "official" | "life",
  bind: (code: string, q: URLSearchParams) => Promise<boolean>,
): boolean {
  const location = useLocation();
  const navigate = useNavigate();
  const handled = useRef(false);
  useEffect(() => {
    const q = new URLSearchParams(location.search);
    const code = q.get("auth_code");
    if (q.get("bind") !== kind || !code || handled.current) return;
    handled.current = true;
    void bind(code, q).then(() => void navigate(location.pathname, { replace: true }));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [location.search]);
  const q = new URLSearchParams(location.search);
  return q.get("bind") === kind && q.has("auth_code");
}

/**
 * `/sale/WechatOfficial` and `/business/DockWechat`: the merchant's official account (公众号) bound through
 * the WeChat platform's consent (auth_type 1; the local platform when it runs): the account and the
 * functions it authorised, unbinding, and what the binding enables: a menu linking the released malls and
 * template messages. The calls the (local) platform answered are listed.
 */
export function OfficialAccountPage({
  redirect,
  hintId,
  titleKey,
}: {
  redirect: string;
  hintId: string;
  titleKey: string;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const key = ["miniprogram", "official"];
  const refresh = () => void qc.invalidateQueries({ queryKey: key });
  const [form] = Form.useForm<{ openId: string; templateId: string }>();

  const binding = useConsentReturn("official", async (code) => {
    const r = await officialApi.callback(code);
    if (r?.ok) {
      void message.success(t("mp.official.bound"));
      refresh();
    }
    return Boolean(r?.ok);
  });
  const { data, isLoading } = useQuery({ queryKey: key, queryFn: officialApi.get, enabled: !binding });

  const authorise = async () => {
    const r = await officialApi.authUrl(redirect);
    if (r?.ok) window.location.assign(r.data.url);
  };
  const account = data?.account ?? null;
  const live = account?.state === "authorized";
  const unbind = async () => {
    const r = await officialApi.unbind();
    if (r?.ok) {
      void message.success(t("mp.official.unbound"));
      refresh();
    }
  };
  const setMenu = async () => {
    const r = await officialApi.menu();
    if (r?.ok) {
      void message.success(t("mp.official.menuSet"));
      refresh();
    }
  };

  const send = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    const r = await officialApi.message(v);
    if (reportFailure(r, form, ["openId", "templateId"], (m) => void message.error(m)) || !r?.ok) return;
    void message.success(t("mp.official.sent", { id: r.data.msgId }));
    refresh();
  };

  const callColumns: TableColumnsType<MpPlatformCall> = [
    { title: t("mp.official.callAt"), dataIndex: "at", width: 150, render: time },
    {
      title: t("mp.official.operation"),
      dataIndex: "operation",
      width: 240,
      render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
    },
    {
      title: t("mp.official.payload"),
      dataIndex: "payload",
      render: (v: Record<string, unknown>) => (
        <Typography.Text style={{ fontSize: 12, wordBreak: "break-all" }}>{JSON.stringify(v)}</Typography.Text>
      ),
    },
  ];

  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }}>
      <PageHint id={hintId} title={t(titleKey)} description={t("mp.official.hint")} />
      <Card
        title={t("mp.official.account")}
        loading={isLoading}
        extra={
          <Space>
            <Button
              type={live ? "default" : "primary"}
              onClick={() => void authorise()}
              data-testid="official-authorise"
            >
              {live ? t("mp.reauthorise") : t("mp.official.bind")}
            </Button>
            {live && (
              <Popconfirm title={t("mp.official.unbindConfirm")} onConfirm={() => void unbind()}>
                <Button danger data-testid="official-unbind">
                  {t("mp.official.unbind")}
                </Button>
              </Popconfirm>
            )}
          </Space>
        }
      >
        {account ? (
          <Descriptions column={2} size="small" bordered data-testid="official-account">
            <Descriptions.Item label={t("mp.official.name")}>{account.name}</Descriptions.Item>
            <Descriptions.Item label={t("mp.appId")}>
              <Typography.Text code copyable>
                {account.appId}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t("mp.official.state")}>
              <Tag color={STATE_COLOUR[account.state]}>{t(`mp.official.states.${account.state}`)}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t("mp.official.authorizedAt")}>{time(account.authorizedAt)}</Descriptions.Item>
            <Descriptions.Item label={t("mp.official.scopes")} span={2}>
              <Space size={[4, 4]} wrap>
                {account.scopes.map((s) => (
                  <Tag key={s}>{s}</Tag>
                ))}
              </Space>
            </Descriptions.Item>
          </Descriptions>
        ) : (
          <Empty description={t("mp.official.none")} />
        )}
      </Card>

      <Card title={t("mp.official.enables")}>
        <Typography.Title level={5} style={{ marginTop: 0 }}>
          {t("mp.official.menu")}
        </Typography.Title>
        <Typography.Paragraph type="secondary">{t("mp.official.menuHint")}</Typography.Paragraph>
        {(data?.mallLinks.length ?? 0) === 0 ? (
          <Typography.Paragraph type="warning">{t("msg:mp.officialNoMall")}</Typography.Paragraph>
        ) : (
          <ul style={{ marginTop: 0 }}>
            {data?.mallLinks.map((l) => (
              <li key={l.url}>
                {l.name}: <Typography.Text code>{l.url}</Typography.Text>
              </li>
            ))}
          </ul>
        )}
        <Space style={{ marginBottom: 16 }}>
          <Button
            disabled={!live || (data?.mallLinks.length ?? 0) === 0}
            onClick={() => void setMenu()}
            data-testid="official-menu"
          >
            {t("mp.official.setMenu")}
          </Button>
          {account?.menu && <Tag color="success">{t("mp.official.menuOn", { n: account.menu.length })}</Tag>}
        </Space>
        <Typography.Title level={5}>{t("mp.official.messages")}</Typography.Title>
        <Form form={form} layout="inline" disabled={!live}>
          <Form.Item name="templateId" rules={[{ required: true, message: t("msg:mp.templateRequired") }]}>
            <Select
              style={{ width: 240 }}
              placeholder={t("mp.official.template")}
              options={(data?.templates ?? []).map((x) => ({ value: x.id, label: x.title }))}
              data-testid="official-template"
            />
          </Form.Item>
          <Form.Item name="openId" rules={[{ required: true, whitespace: true, message: t("msg:mp.openIdEmpty") }]}>
            <Input
              style={{ width: 220 }}
              placeholder={t("mp.official.openId")}
              maxLength={64}
              data-testid="official-openid"
            />
          </Form.Item>
          <Button onClick={() => void send()} data-testid="official-send">
            {t("mp.official.send")}
          </Button>
        </Form>
      </Card>

      <Card title={t("mp.official.calls")}>
        <Table<MpPlatformCall>
          rowKey={(r) => `${r.at}-${r.operation}`}
          size="small"
          columns={callColumns}
          dataSource={data?.calls ?? []}
          pagination={false}
          locale={{ emptyText: t("mp.official.noCalls") }}
        />
      </Card>
    </Space>
  );
}

/**
 * `/providers/LocaLivePlatform`: the provider's authorisation on the local-life platform (Douyin local
 * services) for each brand it serves, through the platform's consent (the local platform when it runs):
 * the brands with their state, authorise, unbind.
 */
export function LocalLifePage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const key = ["miniprogram", "life"];
  const refresh = () => void qc.invalidateQueries({ queryKey: key });
  const redirect = "/providers/LocaLivePlatform";

  const binding = useConsentReturn("life", async (code, q) => {
    const brandId = q.get("brandId") ?? "";
    const r = await lifeApi.callback(code, brandId);
    if (r?.ok) {
      void message.success(t("mp.official.bound"));
      refresh();
    }
    return Boolean(r?.ok);
  });
  const { data, isLoading } = useQuery({ queryKey: key, queryFn: lifeApi.brands, enabled: !binding });

  const authorise = async (brandId: string) => {
    const u = await lifeApi.authUrl(brandId, redirect);
    if (u?.ok) window.location.assign(u.data.url);
  };
  const unbind = async (brandId: string) => {
    const x = await lifeApi.unbind(brandId);
    if (x?.ok) {
      void message.success(t("mp.official.unbound"));
      refresh();
    }
  };

  const columns: TableColumnsType<MpLifeBrand> = [
    { title: t("mp.life.brand"), dataIndex: "brandName", width: 170 },
    { title: t("mp.life.account"), key: "account", width: 170, render: (_: unknown, r) => r.account?.name ?? "—" },
    {
      title: t("mp.appId"),
      key: "appId",
      width: 180,
      render: (_: unknown, r) => (r.account ? <Typography.Text code>{r.account.appId}</Typography.Text> : "—"),
    },
    {
      title: t("mp.official.state"),
      key: "state",
      width: 110,
      render: (_: unknown, r) =>
        r.account ? (
          <Tag color={STATE_COLOUR[r.account.state]}>{t(`mp.official.states.${r.account.state}`)}</Tag>
        ) : (
          <Tag>{t("mp.life.notAuthorised")}</Tag>
        ),
    },
    {
      title: t("mp.official.scopes"),
      key: "scopes",
      width: 260,
      ellipsis: false, // the scopes wrap as tags
      render: (_: unknown, r) =>
        r.account?.state === "authorized" ? (
          <Space size={[4, 4]} wrap>
            {r.account.scopes.map((x) => (
              <Tag key={x}>{x}</Tag>
            ))}
          </Space>
        ) : (
          "—"
        ),
    },
    {
      title: t("mp.official.authorizedAt"),
      key: "at",
      width: 140,
      render: (_: unknown, r) => (r.account ? time(r.account.authorizedAt) : "—"),
    },
    {
      title: t("mp.actions"),
      key: "actions",
      width: 160,
      render: (_: unknown, r) => (
        <Space size={0}>
          <Button
            type="link"
            size="small"
            data-testid={`life-authorise-${r.brandId}`}
            onClick={() => void authorise(r.brandId)}
          >
            {r.account?.state === "authorized" ? t("mp.reauthorise") : t("mp.authorise")}
          </Button>
          {r.account?.state === "authorized" && (
            <Popconfirm title={t("mp.official.unbindConfirm")} onConfirm={() => void unbind(r.brandId)}>
              <Button type="link" size="small" danger>
                {t("mp.official.unbind")}
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }}>
      <PageHint id="providers.LocaLivePlatform" title={t("mp.page.LocaLivePlatform")} description={t("mp.life.hint")} />
      <Card>
        <Table<MpLifeBrand>
          rowKey="brandId"
          size="middle"
          loading={isLoading}
          columns={dense(columns)}
          tableLayout={DENSE_TABLE_LAYOUT}
          scroll={{ x: DENSE_SCROLL_X }}
          dataSource={data ?? []}
          pagination={false}
          locale={{ emptyText: t("mp.life.noBrands") }}
        />
      </Card>
    </Space>
  );
}
