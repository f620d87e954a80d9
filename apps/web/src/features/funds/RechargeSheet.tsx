import { Card, Col, Descriptions, Flex, Row, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useSession, useUserInfo } from "../../api/common";
import { useBankDetails } from "./api";
import { TopUpForm } from "./TopUpForm";
import { TopUpNotices } from "./TopUpNotices";
import { PageHint } from "../../ui/PageHint";

/** The platform's bank account to transfer to (international: the Hong Kong reserve account). */
function BankCard() {
  const { t } = useTranslation();
  const { data: bank } = useBankDetails();
  if (!bank) return <Card variant="borderless" loading />;
  const copyable = (v: string) => <Typography.Text copyable>{v}</Typography.Text>;
  return (
    <Card variant="borderless" title={t("funds.bankTitle")} data-testid="bank-details">
      <Descriptions column={1} size="small">
        <Descriptions.Item label={t("funds.bank.accountName")}>{copyable(bank.accountName)}</Descriptions.Item>
        <Descriptions.Item label={t("funds.bank.bankName")}>{bank.bankName}</Descriptions.Item>
        <Descriptions.Item label={t("funds.bank.accountNumber")}>{copyable(bank.accountNumber)}</Descriptions.Item>
        {bank.swift && <Descriptions.Item label="SWIFT">{copyable(bank.swift)}</Descriptions.Item>}
        {bank.bankAddress && <Descriptions.Item label={t("funds.bank.address")}>{bank.bankAddress}</Descriptions.Item>}
        <Descriptions.Item label={t("funds.bank.currency")}>{bank.currency}</Descriptions.Item>
      </Descriptions>
      <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0, fontSize: 12 }}>
        {bank.feeBasisPoints > 0
          ? t("funds.feeNote", { rate: (bank.feeBasisPoints / 100).toFixed(2) })
          : t("funds.noFeeNote")}
      </Typography.Paragraph>
    </Card>
  );
}

/**
 * `/sale/RechargeSheet` (and the international `sale/RechargeSheet`): transfer to the platform's bank
 * account, file a top-up notice, follow its review.
 */
export default function RechargeSheet() {
  const { t } = useTranslation();
  const { version } = useSession();
  const { data: info } = useUserInfo();
  const currency = info?.balances?.reserve.currency ?? (version === "international" ? "USD" : "CNY");
  const header = (
    <Flex vertical gap={16}>
      <PageHint id="sale.RechargeSheet" title={t("funds.hint.topUpTitle")} description={t("funds.hint.topUp")} />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={10}>
          <BankCard />
        </Col>
        <Col xs={24} xl={14}>
          <TopUpForm currency={currency} version={version} />
        </Col>
      </Row>
      <Typography.Title level={5} style={{ margin: 0 }}>
        {t("funds.myNotices")}
      </Typography.Title>
    </Flex>
  );
  return <TopUpNotices scope="mine" header={header} />;
}
