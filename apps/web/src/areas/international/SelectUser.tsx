import { SystemChooser } from "../../components/chooser/SystemChooser";

/** `/international/SelectUser`: the chooser of the international version, leading to its areas. */
export default function InternationalSelectUser() {
  return <SystemChooser />;
}
