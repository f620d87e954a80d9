import { StatementPage } from "../../features/funds/StatementPage";

/** `/business/DailyFunds`: the income account's daily statement. */
export default function DailyFunds() {
  return <StatementPage unit="day" />;
}
