import { NotFoundResult } from "../../ui/NotFoundResult";

/** Any unknown route: a not-found message with a link home. */
export default function NotFound() {
  return <NotFoundResult />;
}
