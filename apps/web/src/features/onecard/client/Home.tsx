import { Navigate, useLocation } from "react-router";

/** `/client` and `/oneCard`: lead to the card bag (spec 01 §2). */
export default function ClientHome() {
  const { pathname } = useLocation();
  return (
    <Navigate to={pathname.toLowerCase().startsWith("/onecard") ? "/oneCard/cardBag" : "/client/cardBag"} replace />
  );
}
