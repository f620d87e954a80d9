import { SwapOutlined } from "@ant-design/icons";
import { Button, Flex } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { FundAccount } from "@tessera/contracts";
import { useUserInfo } from "../../api/hooks/account";
import { useReserveTransfer } from "../../api/hooks/funds";
import { PageHint } from "../PageHint";
import { AmountDialog } from "./AmountDialog";
import { BalanceHeader, FundChangeList } from "./FundChangeList";

/**
 * One account's balance and fund changes. With `transfer`, the purchaser can move money from its
 * reserve account to its SUP account here (the SUP top-up of supRechargeOrder).
 */
export function AccountFundsPage({ account, hintId, transfer = false }: { account: FundAccount; hintId: string; transfer?: boolean }) {
  const { t } = useTranslation();
  const { data: info } = useUserInfo();
  const move = useReserveTransfer();
  const [open, setOpen] = useState(false);
  const balances = info?.balances;
  const money = balances?.[account];
  const header = (
    <Flex vertical gap={16}>
      <PageHint id={hintId} title={t(`funds.accountHint.${account}Title`)} description={t(`funds.accountHint.${account}`)} />
      <BalanceHeader
        title={t(`funds.balanceOf.${account}`)}
        money={money}
        actions={
          transfer ? (
            <Button type="primary" icon={<SwapOutlined />} onClick={() => setOpen(true)} disabled={!balances}>
              {t("funds.reserveTransfer")}
            </Button>
          ) : undefined
        }
      />
    </Flex>
  );
  return (
    <>
      <FundChangeList account={account} currency={money?.currency ?? "CNY"} header={header} />
      {open && balances && (
        <AmountDialog
          title={t("funds.reserveTransfer")}
          currency={balances.reserve.currency}
          available={balances.reserve}
          successText={t("funds.transferDone")}
          onSubmit={({ amount, requestKey }) => move.mutateAsync({ amount, requestKey })}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}
