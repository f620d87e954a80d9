import { ServiceBindPanel } from "../../features/onboarding/ServiceBindPanel";

/** `/sale/ServiceBind`: bind a service provider (as a merchant, in its VendorList) by its merchant ID, see it, or unbind it. */
export default function ServiceBind() {
  return <ServiceBindPanel pageId="sale.ServiceBind" kind="vendor" />;
}
