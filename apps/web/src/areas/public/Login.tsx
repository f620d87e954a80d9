import { Landing } from "../../features/accounts/Landing";

/** `/login` and `/login1`: the landing page with the login dialog open (Chinese version). */
export default function Login() {
  return <Landing version="domestic" />;
}
