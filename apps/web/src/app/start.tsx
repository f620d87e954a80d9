import { StrictMode, type ReactElement } from "react";
import { RouterProvider } from "react-router";
import { chooseLang, currentLang, i18nReady, storedLang } from "../i18n";
import { configureHttp } from "../api/http";
import { AppProviders } from "./providers";
import { router } from "./router";
import "./app.css";

/**
 * The whole app (router, providers, antd), loaded by main.tsx: at once on most pages, right after the
 * light first screen on the login pages. Resolves when the first language's texts have arrived (one
 * small file, fetched beside this code), so the app never renders untranslated keys.
 */
export async function startApp(): Promise<ReactElement> {
  configureHttp({ navigate: (path) => void router.navigate(path, { replace: true }) });
  await i18nReady;
  // A language chosen on the light login screen while this code downloaded (i18n picked its language on import).
  const chosen = storedLang();
  if (chosen && chosen !== currentLang()) chooseLang(chosen);
  return (
    <StrictMode>
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>
  );
}
