import { featurePage, type PageDef } from "../../ui/areas";

/** Pages outside the areas, open without a session: logins, system choosers, real-name verification. Absolute paths. */
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
  { path: "/ops/login", load: () => import("../../areas/ops/Login"), titleKey: "ops.title.login" },
  {
    path: "/RealNamePage",
    load: () => import("../../areas/providers/RealNamePage"),
    titleKey: "onboarding.title.realName",
  },
  { path: "/Developer", load: () => import("../../areas/developer/Developer"), titleKey: "developer.title" },
  { path: "/oneCardQuery", load: () => import("../../areas/client/CardQuery"), titleKey: "onecard.title.query" },
  { path: "/takeout/:merchantId", load: () => import("../../areas/takeout/Shop"), titleKey: "takeout.page.Shop" },
  { path: "/takeout/order/:id", load: () => import("../../areas/takeout/Order"), titleKey: "takeout.page.Order" },
  { path: "/client", load: () => import("../../areas/client/Home"), titleKey: "onecard.title.cardBag" },
  { path: "/client/login", load: () => import("../../areas/client/Login"), titleKey: "onecard.title.login" },
  { path: "/client/cardBag", load: () => import("../../areas/client/CardBag"), titleKey: "onecard.title.cardBag" },
  {
    path: "/client/equityChange",
    load: () => import("../../areas/client/EquityChange"),
    titleKey: "onecard.title.changes",
  },
  { path: "/client/orderList", load: () => import("../../areas/client/OrderList"), titleKey: "onecard.title.orders" },
  { path: "/client/cardQuery", load: () => import("../../areas/client/CardQuery"), titleKey: "onecard.title.query" },
  {
    path: "/client/rechargeEquity",
    load: () => import("../../areas/client/RechargeEquity"),
    titleKey: "onecard.title.recharge",
  },
  {
    path: "/client/extractCard",
    load: () => import("../../areas/client/ExtractCard"),
    titleKey: "onecard.title.extract",
  },
  {
    path: "/client/resetCardPwd",
    load: () => import("../../areas/client/ResetCardPwd"),
    titleKey: "onecard.title.resetPwd",
  },
  { path: "/client/claim", load: () => import("../../areas/client/Claim"), titleKey: "onecard.title.claim" },
  {
    path: "/client/rechargeResult",
    load: () => import("../../areas/client/RechargeResult"),
    titleKey: "onecard.title.result",
  },
  { path: "/oneCard", load: () => import("../../areas/client/Home"), titleKey: "onecard.title.cardBag" },
  { path: "/oneCard/cardBag", load: () => import("../../areas/client/CardBag"), titleKey: "onecard.title.cardBag" },
  { path: "/oneCard/orderList", load: () => import("../../areas/client/OrderList"), titleKey: "onecard.title.orders" },
  { path: "/verify", load: () => import("../../areas/verify/Verify"), titleKey: "writeoff.title.verify" },
  { path: "/qr/:token", load: () => import("../../areas/verify/QrLanding"), titleKey: "stores.title.qr" },
  { path: "/pay/:token", load: () => import("../../areas/verify/Pay"), titleKey: "collection.title.pay" },
  { path: "/paySign/:token", load: () => import("../../areas/verify/PaySign"), titleKey: "collection.title.sign" },
  {
    path: "/mp-platform/:platform/authorize",
    load: () => import("../../areas/mpplatform/Authorize"),
    titleKey: "mp.consent.pageTitle",
  },
];
