import type { PageDef } from "../../ui/areas";

/**
 * The end customer's pages, phone-first and open without a merchant session (the customer has a session of
 * its own): the card bag (`/client`, `/oneCard`), the takeout mini-shop, the store's write-off and QR
 * landing, the collection-code payment. Absolute paths. The storefront (`/mall/*`) is not here: it is its
 * own entry (mall-main.tsx) with its own router (features/mall/storefront/router.tsx). The card bag's login, bag, balance changes and
 * orders open in the card bag's light entry (features/onecard/client/light, loaded by main.tsx); here they
 * reload the page into it.
 */
export const clientPages: PageDef[] = [
  {
    path: "/oneCardQuery",
    load: () => import("../../features/onecard/client/CardQuery"),
    titleKey: "onecard.title.query",
  },
  {
    path: "/CardCharterPage",
    load: () => import("../../features/onecard/client/CardCharter"),
    titleKey: "onecard.title.charter",
  },
  {
    path: "/takeout/:merchantId",
    load: () => import("../../features/takeout/shop/Shop"),
    titleKey: "takeout.page.Shop",
  },
  {
    path: "/takeout/order/:id",
    load: () => import("../../features/takeout/shop/Order"),
    titleKey: "takeout.page.Order",
  },
  { path: "/client", load: () => import("../../features/onecard/client/ToLight"), titleKey: "onecard.title.cardBag" },
  {
    path: "/client/login",
    load: () => import("../../features/onecard/client/ToLight"),
    titleKey: "onecard.title.login",
  },
  {
    path: "/client/cardBag",
    load: () => import("../../features/onecard/client/ToLight"),
    titleKey: "onecard.title.cardBag",
  },
  {
    path: "/client/equityChange",
    load: () => import("../../features/onecard/client/ToLight"),
    titleKey: "onecard.title.changes",
  },
  {
    path: "/client/orderList",
    load: () => import("../../features/onecard/client/ToLight"),
    titleKey: "onecard.title.orders",
  },
  {
    path: "/client/cardQuery",
    load: () => import("../../features/onecard/client/CardQuery"),
    titleKey: "onecard.title.query",
  },
  {
    path: "/client/rechargeEquity",
    load: () => import("../../features/onecard/client/RechargeEquity"),
    titleKey: "onecard.title.recharge",
  },
  {
    path: "/client/extractCard",
    load: () => import("../../features/onecard/client/ExtractCard"),
    titleKey: "onecard.title.extract",
  },
  {
    path: "/client/resetCardPwd",
    load: () => import("../../features/onecard/client/ResetCardPwd"),
    titleKey: "onecard.title.resetPwd",
  },
  { path: "/client/claim", load: () => import("../../features/onecard/client/Claim"), titleKey: "onecard.title.claim" },
  {
    path: "/client/rechargeResult",
    load: () => import("../../features/onecard/client/RechargeResult"),
    titleKey: "onecard.title.result",
  },
  { path: "/oneCard", load: () => import("../../features/onecard/client/ToLight"), titleKey: "onecard.title.cardBag" },
  {
    path: "/oneCard/cardBag",
    load: () => import("../../features/onecard/client/ToLight"),
    titleKey: "onecard.title.cardBag",
  },
  {
    path: "/oneCard/orderList",
    load: () => import("../../features/onecard/client/ToLight"),
    titleKey: "onecard.title.orders",
  },
  { path: "/verify", load: () => import("../../features/stores/verify/Verify"), titleKey: "writeoff.title.verify" },
  { path: "/qr/:token", load: () => import("../../features/stores/verify/QrLanding"), titleKey: "stores.title.qr" },
  { path: "/pay/:token", load: () => import("../../features/collection/pay/Pay"), titleKey: "collection.title.pay" },
  {
    path: "/paySign/:token",
    load: () => import("../../features/collection/pay/PaySign"),
    titleKey: "collection.title.sign",
  },
];
