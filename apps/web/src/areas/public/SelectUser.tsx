import { SystemChooser } from "../../features/accounts/SystemChooser";

/** `/SelectUser`: choose the purchaser or the supplier system, then Enter. */
export default function SelectUser() {
  return <SystemChooser />;
}
