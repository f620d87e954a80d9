import { RealNameForm } from "../../features/onboarding/RealNameForm";

/** `/sale/Authentication`: real-name verification of the purchaser: licence and ID images, confirmed fields, review state. */
export default function Authentication() {
  return <RealNameForm pageId="sale.Authentication" />;
}
