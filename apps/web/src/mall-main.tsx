import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { initMallI18n } from "./features/mall/storefront/i18n";
import { MallApp } from "./features/mall/storefront/MallApp";
import "./features/mall/storefront/mall.css";

/**
 * The customer storefront's own entry (mall.html, served for /mall/*): React, i18next with the
 * storefront's texts and its plain pages, without the back-office's Ant Design, router and locale chunks
 * (issue 30: under 120 kB gzip of first JS, Lighthouse mobile at least 90).
 */
void initMallI18n().then(() => {
  createRoot(document.getElementById("root")!).render(
    <StrictMode>
      <MallApp />
    </StrictMode>,
  );
});
