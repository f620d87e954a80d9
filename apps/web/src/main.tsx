import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router";
import { i18nReady } from "./i18n";
import { configureHttp } from "./api/http";
import { AppProviders } from "./app/providers";
import { router } from "./app/router";
import "./app/app.css";

configureHttp({ navigate: (path) => void router.navigate(path, { replace: true }) });

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root");

// The first screen waits for its language's texts (one small file, fetched beside the page's code).
await i18nReady;
createRoot(root).render(
  <StrictMode>
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
