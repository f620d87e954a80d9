import { SwapOutlined } from "@ant-design/icons";
import { Button, Flex, Segmented } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { FundAccount } from "@tessera/contracts";
import { useUserInfo } from "../../api/common";
import { useReserveTransfer } from "./api";
import { PageHint } from "../../ui/PageHint";
import { AmountDialog } from "./AmountDialog";
import { BalanceHeader, FundChangeList } from "./FundChangeList";

/**
 * An account's balance and fund changes; with several `accounts`, a switch between them. With
 * `transfer`, the purchaser can move money from its reserve account to its SUP account here. With
 * `onlyType`, the list shows that one change type (the SUP top-up page lists only the top-ups) and
 * `hint` names the page's own purpose instead of the account's.
 */
export function AccountFundsPage({
  accounts,
  hintId,
  transfer = false,
  onlyType,
  hint,
}: {
  accounts: readonly [FundAccount, ...FundAccount[]];
  hintId: string;
  transfer?: boolean;
  onlyType?: string;
  hint?: string;
}) {
  const { t } = useTranslation();
  const [account, setAccount] = useState<FundAccount>(accounts[0]);
  const { data: info } = useUserInfo();
  const move = useReserveTransfer();
  const [open, setOpen] = useState(false);
  const balances = info?.balances;
  const money = balances?.[account];
  const header = (
    <Flex vertical gap={16}>
      <PageHint
        id={hintId}
        title={t(`funds.accountHint.${hint ?? account}Title`)}
        description={t(`funds.accountHint.${hint ?? account}`)}
      />
      {accounts.length > 1 && (
        <Segmented<FundAccount>
          value={account}
          onChange={setAccount}
          options={accounts.map((a) => ({ value: a, label: t(`funds.account.${a}`) }))}
          style={{ alignSelf: "flex-start" }}
        />
      )}
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
      <FundChangeList
        key={account}
        account={account}
        currency={money?.currency ?? "CNY"}
        header={header}
        onlyType={onlyType}
      />
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
