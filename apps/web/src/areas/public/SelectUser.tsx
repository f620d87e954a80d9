import { SystemChooser } from "../../components/chooser/SystemChooser";

/** `/SelectUser`: choose the purchaser or the supplier system, then Enter. */
export default function SelectUser() {
  return <SystemChooser />;
}
