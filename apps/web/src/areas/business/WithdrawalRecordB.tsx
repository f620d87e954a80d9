import { WithdrawalPage } from "../../features/funds/WithdrawalPage";

/** `/international/business/WithdrawalRecordB`: the supplier's withdrawals of its income. */
export default function WithdrawalRecordB() {
  return <WithdrawalPage account="income" hintId="business.WithdrawalRecordB" />;
}
