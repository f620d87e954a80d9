import { featurePage, type PageDef } from "../../ui/areas";

/**
 * Pages outside the areas, open without a session: logins, system choosers, real-name verification, the
 * developer portal, the mini-program platform's consent. Absolute paths (the end customer's pages are in
 * areas/client/routes.ts).
 */
export const publicPages: PageDef[] = [
  {
    path: "/login",
    load: featurePage(() => import("../../features/accounts/Landing").then((m) => m.Landing), { version: "domestic" }),
    titleKey: "title.login",
  },
  {
    path: "/login1",
    load: featurePage(() => import("../../features/accounts/Landing").then((m) => m.Landing), { version: "domestic" }),
    titleKey: "title.login",
  },
  {
    path: "/SelectUser",
    load: featurePage(() => import("../../features/accounts/SystemChooser").then((m) => m.SystemChooser), {}),
    titleKey: "title.selectUser",
  },
  {
    path: "/international/INlogin",
    load: featurePage(() => import("../../features/accounts/Landing").then((m) => m.Landing), {
      version: "international",
    }),
    titleKey: "title.intlLogin",
  },
  {
    path: "/international/SelectUser",
    load: featurePage(() => import("../../features/accounts/SystemChooser").then((m) => m.SystemChooser), {}),
    titleKey: "title.selectUser",
  },
  { path: "/ops/login", load: () => import("../../features/accounts/OpsLogin"), titleKey: "ops.title.login" },
  {
    path: "/RealNamePage",
    load: () => import("../../features/onboarding/RealNamePage"),
    titleKey: "onboarding.title.realName",
  },
  { path: "/Developer", load: () => import("../../features/developer/Developer"), titleKey: "developer.title" },
  {
    path: "/mp-platform/:platform/authorize",
    load: () => import("../../features/miniprogram/PlatformAuthorize"),
    titleKey: "mp.consent.pageTitle",
  },
];
