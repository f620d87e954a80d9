import { ProfileForm } from "../../features/onboarding/ProfileForm";

/** `/business/BasicInfo`: the supplier's company profile: name, legal representative, contact, address, industry, logo. */
export default function BasicInfo() {
  return <ProfileForm pageId="business.BasicInfo" />;
}
