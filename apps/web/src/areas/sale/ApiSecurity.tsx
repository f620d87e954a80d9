import { ApiSecurityPanel } from "../../components/onboarding/ApiSecurityPanel";

/** `/sale/ApiSecurity`: API permission, app key and secret, IP allowlist and callback URL of the purchaser. */
export default function ApiSecurity() {
  return <ApiSecurityPanel pageId="sale.ApiSecurity" />;
}
