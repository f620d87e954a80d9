import { Flex } from "antd";
import { useTranslation } from "react-i18next";
import { useUserInfo } from "../../api/hooks/account";
import { BalanceHeader, FundChangeList } from "../../components/funds/FundChangeList";
import { PageHint } from "../../components/PageHint";

/**
 * `/business/ChangesFunds` (and the international `business/ChangesFunds`): the supplier's income
 * account: what sales brought in and what left it (withdrawals, refunds).
 */
export default function ChangesFunds() {
  const { t } = useTranslation();
  const { data: info } = useUserInfo();
  const income = info?.balances?.income;
  const header = (
    <Flex vertical gap={16}>
      <PageHint id="business.ChangesFunds" title={t("funds.hint.changesFundsTitle")} description={t("funds.hint.changesFunds")} />
      <BalanceHeader title={t("funds.balanceOf.income")} money={income} />
    </Flex>
  );
  return <FundChangeList account="income" currency={income?.currency ?? "CNY"} header={header} />;
}
