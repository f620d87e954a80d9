import { WithdrawalPage } from "../../features/funds/WithdrawalPage";

/** `/providers/WithdrawalRecordP`: the service provider withdraws its income to its verified card. */
export default function WithdrawalRecordP() {
  return <WithdrawalPage account="income" hintId="providers.WithdrawalRecordP" />;
}
