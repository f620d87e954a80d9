import { NotFoundResult } from "../../components/NotFoundResult";

/** Any unknown route: a not-found message with a link home. */
export default function NotFound() {
  return <NotFoundResult />;
}
