import { WithdrawalPage } from "../../features/funds/WithdrawalPage";

/** `/sale/WithdrawalRecord`: the purchaser withdraws from its reserve account to its verified card. */
export default function WithdrawalRecord() {
  return <WithdrawalPage account="reserve" hintId="sale.WithdrawalRecord" />;
}
