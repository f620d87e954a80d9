import { ProfileForm } from "../../features/onboarding/ProfileForm";

/** `/sale/BasicInformation`: the purchaser's company profile: name, legal representative, contact, address, industry, logo. */
export default function BasicInformation() {
  return <ProfileForm pageId="sale.BasicInformation" />;
}
