import { BankOutlined } from "@ant-design/icons";
import { Button, Col, Flex, Row } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { WithdrawAccount } from "@tessera/contracts";
import { useUserInfo } from "../../api/common";
import { useRequestWithdrawal } from "./api";
import { PageHint } from "../../ui/PageHint";
import { AmountDialog } from "./AmountDialog";
import { BankCardPanel } from "./BankCardPanel";
import { BalanceHeader } from "./FundChangeList";
import { WithdrawalList } from "./WithdrawalList";

/**
 * A withdrawal records page: the withdrawal card, the balance it can withdraw with the Withdraw action,
 * and the records. Purchasers withdraw from the reserve account, suppliers from their income.
 */
export function WithdrawalPage({ account, hintId }: { account: WithdrawAccount; hintId: string }) {
  const { t } = useTranslation();
  const { data: info } = useUserInfo();
  const request = useRequestWithdrawal();
  const [open, setOpen] = useState(false);
  const balance = info?.balances?.[account];
  const header = (
    <Flex vertical gap={16}>
      <PageHint id={hintId} title={t("withdraw.hintTitle")} description={t(`withdraw.hint.${account}`)} />
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <BalanceHeader
            title={t(`funds.balanceOf.${account}`)}
            money={balance}
            actions={
              <Button type="primary" icon={<BankOutlined />} onClick={() => setOpen(true)} disabled={!balance}>
                {t("withdraw.withdraw")}
              </Button>
            }
          />
        </Col>
        <Col xs={24} lg={12}>
          <BankCardPanel />
        </Col>
      </Row>
    </Flex>
  );
  return (
    <>
      <WithdrawalList scope="mine" header={header} />
      {open && balance && (
        <AmountDialog
          title={t("withdraw.withdraw")}
          currency={balance.currency}
          available={balance}
          successText={t("withdraw.submitted")}
          onSubmit={({ amount, requestKey }) => request.mutateAsync({ amount, account, requestKey })}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}
