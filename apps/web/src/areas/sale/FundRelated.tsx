import { SwapOutlined } from "@ant-design/icons";
import { Button, Flex, Segmented } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useUserInfo } from "../../api/hooks/account";
import { useReserveTransfer } from "../../api/hooks/funds";
import { AmountDialog } from "../../components/funds/AmountDialog";
import { BalanceHeader, FundChangeList } from "../../components/funds/FundChangeList";
import { PageHint } from "../../components/PageHint";

type Account = "reserve" | "sup";

/**
 * `/sale/FundRelated` (and the international `sale/FundsChange`): the purchaser's fund changes of the
 * reserve/payment account and the SUP account, and the reserve transfer that moves money between them.
 */
export default function FundRelated() {
  const { t } = useTranslation();
  const { data: info } = useUserInfo();
  const [account, setAccount] = useState<Account>("reserve");
  const [transferring, setTransferring] = useState(false);
  const transfer = useReserveTransfer();
  const balances = info?.balances;
  const currency = balances?.reserve.currency ?? "CNY";

  const header = (
    <Flex vertical gap={16}>
      <PageHint id="sale.FundRelated" title={t("funds.hint.fundRelatedTitle")} description={t("funds.hint.fundRelated")} />
      <Segmented<Account>
        value={account}
        onChange={setAccount}
        options={[
          { value: "reserve", label: t("funds.account.reserve") },
          { value: "sup", label: t("funds.account.sup") },
        ]}
        style={{ alignSelf: "flex-start" }}
      />
      <BalanceHeader
        title={t(`funds.balanceOf.${account}`)}
        money={balances?.[account]}
        actions={
          <Button icon={<SwapOutlined />} type="primary" onClick={() => setTransferring(true)} disabled={!balances}>
            {t("funds.reserveTransfer")}
          </Button>
        }
      />
    </Flex>
  );

  return (
    <>
      <FundChangeList key={account} account={account} currency={currency} header={header} />
      {transferring && balances && (
        <AmountDialog
          title={t("funds.reserveTransfer")}
          currency={currency}
          available={balances.reserve}
          successText={t("funds.transferDone")}
          onSubmit={({ amount, requestKey }) => transfer.mutateAsync({ amount, requestKey })}
          onClose={() => setTransferring(false)}
        />
      )}
    </>
  );
}
