import { RealNameForm } from "../../features/onboarding/RealNameForm";

/** `/providers/AuthenticationP`: real-name verification of the provider itself: licence and ID images, confirmed fields, review state. */
export default function AuthenticationP() {
  return <RealNameForm pageId="providers.AuthenticationP" />;
}
