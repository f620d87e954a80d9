import { MailOutlined, MobileOutlined } from "@ant-design/icons";
import {
  Button,
  Card,
  Col,
  Descriptions,
  Empty,
  Flex,
  Row,
  Skeleton,
  Space,
  Statistic,
  Tag,
  theme,
  Typography,
} from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { isLang, type Money, type UserInfo } from "@tessera/contracts";
import { useUserInfo } from "../../api/common";
import { FundLinks } from "../funds/FundLinks";
import { SetupChecklist } from "../setup/SetupChecklist";
import { formatMoney } from "../../ui/money";
import { RequiredStatesNotice } from "../onboarding/RequiredStatesNotice";
import { PageHint } from "../../ui/PageHint";
import { regionOptions } from "../../ui/regions";
import { BindPhoneDialog } from "./BindPhoneDialog";
import { ChangeEmailDialog } from "./ChangeEmailDialog";
import { RealNameTag } from "./RealNameTag";
import { StaffApps } from "./StaffApps";

type HomeRole = "sale" | "business" | "providers";

/** Greeting and page hint of each home; the providers' texts live in their own locale file. */
const HOME_TEXT: Record<HomeRole, { greeting: string; hintTitle: string; hintBody: string }> = {
  sale: { greeting: "home.greeting.sale", hintTitle: "home.hint.sale.title", hintBody: "home.hint.sale.body" },
  business: {
    greeting: "home.greeting.business",
    hintTitle: "home.hint.business.title",
    hintBody: "home.hint.business.body",
  },
  providers: {
    greeting: "providers.home.greeting",
    hintTitle: "providers.home.hintTitle",
    hintBody: "providers.home.hintBody",
  },
};

function BalanceCard({ title, hint, money, testId }: { title: string; hint: string; money: Money; testId: string }) {
  return (
    <Card variant="borderless" style={{ height: "100%" }}>
      <Statistic
        title={title}
        value={money.amount}
        formatter={() => <span data-testid={testId}>{formatMoney(money)}</span>}
      />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {hint}
      </Typography.Text>
    </Card>
  );
}

function Balances({ info, role }: { info: UserInfo; role: HomeRole }) {
  const { t } = useTranslation();
  if (!info.balances) return null;
  const { sup, reserve, income, sandboxIncome } = info.balances;
  // Test money from the sandbox payment adapter is shown apart, and only when there is some.
  const sandbox =
    sandboxIncome.amount !== 0
      ? [{ key: "sandbox", title: t("home.sandboxBalance"), hint: t("home.sandboxBalanceHint"), money: sandboxIncome }]
      : [];
  // A service provider holds no SUP or reserve money of its own: only the account its income lands in.
  const cards =
    role === "providers"
      ? [
          {
            key: "income",
            title: t("providers.home.accountBalance"),
            hint: t("providers.home.accountBalanceHint"),
            money: income,
          },
        ]
      : role === "sale"
        ? [
            { key: "sup", title: t("home.supBalance"), hint: t("home.supBalanceHint"), money: sup },
            { key: "reserve", title: t("home.reserveBalance"), hint: t("home.reserveBalanceHint"), money: reserve },
            ...sandbox,
          ]
        : [
            { key: "income", title: t("home.accountBalance"), hint: t("home.accountBalanceHint"), money: income },
            { key: "sup", title: t("home.supBalance"), hint: t("home.supplierSupHint"), money: sup },
            ...sandbox,
          ];
  return (
    <Row gutter={[16, 16]}>
      {cards.map((c) => (
        <Col xs={24} md={12} key={c.key}>
          <BalanceCard title={c.title} hint={c.hint} money={c.money} testId={`balance-${c.key}`} />
        </Col>
      ))}
    </Row>
  );
}

/**
 * The home page of a back-office area (spec 01 §2 screens 5 and 6): the real account from GET userInfo
 * (merchant ID, login account, email, phone, real-name state, API permission, currency), the two
 * balances, and the account actions change email and bind/change phone.
 */
export function AccountHome({ role }: { role: HomeRole }) {
  const { t, i18n } = useTranslation();
  const { token: themeToken } = theme.useToken();
  const { data: info, isPending } = useUserInfo();
  const [dialog, setDialog] = useState<"email" | "phone" | null>(null);
  const lang = isLang(i18n.language) ? i18n.language : "cn";

  if (!info) {
    return <Card variant="borderless">{isPending ? <Skeleton active paragraph={{ rows: 6 }} /> : <Empty />}</Card>;
  }
  const m = info.merchant;
  const countryLabel = m?.country ? (regionOptions(lang).find((r) => r.value === m.country)?.label ?? m.country) : null;

  const items = [
    {
      key: "merchantId",
      label: t("home.merchantId"),
      children: (
        <Typography.Text copyable data-testid="merchant-id">
          {m?.merchantId ?? "-"}
        </Typography.Text>
      ),
    },
    { key: "orgName", label: t("home.orgName"), children: m?.name ?? "-" },
    { key: "loginAccount", label: t("home.loginAccount"), children: info.loginAccount },
    { key: "email", label: t("home.email"), children: <span data-testid="account-email">{info.email}</span> },
    {
      key: "phone",
      label: t("home.phone"),
      children: info.phone ?? <Typography.Text type="secondary">{t("home.phoneNotBound")}</Typography.Text>,
    },
    { key: "realName", label: t("home.realName"), children: m ? <RealNameTag state={m.realNameState} /> : "-" },
    {
      key: "api",
      label: t("home.apiPermission"),
      children: m ? (
        <Tag color={m.apiPermission === "opened" ? "success" : "default"}>{t(`apiPermission.${m.apiPermission}`)}</Tag>
      ) : (
        "-"
      ),
    },
    { key: "currency", label: t("home.currency"), children: m ? t(`currency.${m.currency}`) : "-" },
    ...(m?.version === "international"
      ? [{ key: "country", label: t("home.country"), children: countryLabel ?? "-" }]
      : []),
  ];

  return (
    <>
      <PageHint id={`${role}.home`} title={t(HOME_TEXT[role].hintTitle)} description={t(HOME_TEXT[role].hintBody)} />
      <Flex vertical gap={6} style={{ padding: "4px 2px" }}>
        <Typography.Text type="secondary">{t(HOME_TEXT[role].greeting)}</Typography.Text>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {m?.name ?? info.loginAccount}
        </Typography.Title>
        <Space size={8} wrap>
          {m && <RealNameTag state={m.realNameState} />}
          {m && (
            <Tag color={themeToken.colorPrimary}>
              {t(m.version === "international" ? "home.versionIntl" : "home.versionDomestic")}
            </Tag>
          )}
          {m && <Tag>{t("home.merchantIdShort", { id: m.merchantId })}</Tag>}
        </Space>
      </Flex>
      {role !== "providers" && <RequiredStatesNotice />}
      <Balances info={info} role={role} />
      <FundLinks />
      {(role === "business" || role === "sale") && <SetupChecklist area={role} />}
      {role === "business" && <StaffApps />}
      <Card
        variant="borderless"
        title={t("home.accountInfo")}
        extra={
          <Space wrap>
            <Button icon={<MailOutlined />} onClick={() => setDialog("email")}>
              {t("home.changeEmail")}
            </Button>
            <Button icon={<MobileOutlined />} onClick={() => setDialog("phone")}>
              {t(info.phone ? "home.changePhone" : "home.bindPhone")}
            </Button>
          </Space>
        }
      >
        <Descriptions bordered column={{ xs: 1, md: 2 }} items={items} size="middle" />
      </Card>
      {dialog === "email" && <ChangeEmailDialog onClose={() => setDialog(null)} />}
      {dialog === "phone" && <BindPhoneDialog current={info.phone} onClose={() => setDialog(null)} />}
    </>
  );
}
