import { Landing } from "../../features/accounts/Landing";

/**
 * `/international/INlogin`: login and registration of the international version, open to businesses
 * in Hong Kong, Singapore, Europe and the Americas, settling in USD or HKD. Traditional Chinese by
 * default while the user has not picked a language.
 */
export default function INlogin() {
  return <Landing version="international" />;
}
