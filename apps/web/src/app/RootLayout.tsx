import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Outlet, useLocation, useMatches } from "react-router";
import { AuthDialogsProvider } from "../features/accounts/auth/AuthDialogs";
import { applyAreaDefaultLang } from "../i18n";
import { AreasContext } from "../ui/areas";
import { AREAS, isRouteHandle } from "./routes";

/** Sets the document title in the current language from the deepest route that names one. */
function useDocumentTitle(): void {
  const matches = useMatches();
  const { t, i18n } = useTranslation();
  const titleKey = [...matches]
    .reverse()
    .map((m) => m.handle)
    .find(isRouteHandle)?.titleKey;
  useEffect(() => {
    const app = t("app.name");
    document.title = titleKey ? `${t(titleKey)} - ${app}` : app;
  }, [titleKey, t, i18n.language]);
}

/** The root of every page: title, area language default, the route table's areas and the login/register dialogs. */
export function RootLayout() {
  const { pathname } = useLocation();
  useEffect(() => applyAreaDefaultLang(pathname), [pathname]);
  useDocumentTitle();
  return (
    <AreasContext value={AREAS}>
      <AuthDialogsProvider>
        <Outlet />
      </AuthDialogsProvider>
    </AreasContext>
  );
}
