import { RealNameForm } from "../../features/onboarding/RealNameForm";

/** `/business/AuthenticationB`: real-name verification of the supplier: licence and ID images, confirmed fields, review state. */
export default function AuthenticationB() {
  return <RealNameForm pageId="business.AuthenticationB" />;
}
