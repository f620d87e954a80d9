import { useEffect } from "react";
import { useLocation } from "react-router";
import { FullPageSpin } from "../../../ui/FullPageSpin";

/**
 * The card bag's light pages (light/paths.ts: login, card bag, balance changes, orders) as the app's routes:
 * reached by a link inside the app (a top-up's result, the gift claim), the page loads again and main.tsx
 * opens it in the light entry, which holds the only copy of these pages.
 */
export default function ToLight() {
  const { pathname, search } = useLocation();
  useEffect(() => {
    window.location.replace(pathname + search);
  }, [pathname, search]);
  return <FullPageSpin />;
}
