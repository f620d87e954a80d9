import { SystemChooser } from "../../features/accounts/SystemChooser";

/** `/international/SelectUser`: the chooser of the international version, leading to its areas. */
export default function InternationalSelectUser() {
  return <SystemChooser />;
}
