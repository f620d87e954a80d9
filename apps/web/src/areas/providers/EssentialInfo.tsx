import { ProfileForm } from "../../features/onboarding/ProfileForm";

/** `/providers/EssentialInfo`: the provider's company profile: name, legal representative, contact, address, industry, logo. */
export default function EssentialInfo() {
  return <ProfileForm pageId="providers.EssentialInfo" />;
}
