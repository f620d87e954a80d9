import { StatementPage } from "../../features/funds/StatementPage";

/** `/business/Billing`: the income account's monthly settlement. */
export default function Billing() {
  return <StatementPage unit="month" />;
}
