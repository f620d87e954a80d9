import { ServiceBindPanel } from "../../components/onboarding/ServiceBindPanel";

/** `/business/ServiceBind`: bind a service provider by its merchant ID, see it, or unbind it. */
export default function ServiceBind() {
  return <ServiceBindPanel pageId="business.ServiceBind" />;
}
