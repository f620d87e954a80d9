import { ServiceBindPanel } from "../../features/onboarding/ServiceBindPanel";

/** `/business/ServiceBind`: bind a service provider (as a brand, in its BrandsList) by its merchant ID, see it, or unbind it. */
export default function ServiceBind() {
  return <ServiceBindPanel pageId="business.ServiceBind" kind="brand" />;
}
