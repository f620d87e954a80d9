import { ApiSecurityPanel } from "../../features/onboarding/ApiSecurityPanel";

/** `/business/ApiSecurityB`: API permission, app key and secret, IP allowlist and callback URL of the supplier. */
export default function ApiSecurityB() {
  return <ApiSecurityPanel pageId="business.ApiSecurityB" />;
}
