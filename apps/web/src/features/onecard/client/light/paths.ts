/**
 * The card bag's pages that open in its light entry (issue 40 item 9: plain React, no antd, router or
 * react-query; main.tsx loads start.tsx for them instead of the whole app). Imports nothing, so main.tsx
 * can ask without loading anything. The card bag's other pages (add a card, top-up, card password, gift
 * claim, balance query, charter) stay in the app; going between the two is a page load.
 */
export type BagPage = "home" | "login" | "cardBag" | "changes" | "orders";

const PAGES: Record<string, BagPage> = {
  "/client": "home",
  "/client/login": "login",
  "/client/cardbag": "cardBag",
  "/client/equitychange": "changes",
  "/client/orderlist": "orders",
  "/onecard": "home",
  "/onecard/cardbag": "cardBag",
  "/onecard/orderlist": "orders",
};

/** The light page of a path (case-insensitive, as the app's routes are; a trailing slash is ignored), or null. */
export function bagPageOf(pathname: string): BagPage | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return PAGES[path.toLowerCase()] ?? null;
}
