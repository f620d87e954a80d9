import dayjs from "dayjs";
import type { Query } from "../../api/client";
import type { SearchValues } from "../../ui/list/searchValues";

/** Where each order list is read and exported, per side. */
export const ORDER_LIST_PATHS = {
  purchaser: {
    orders: "/api/card-user/orders/export",
    refunds: "/api/card-user/refunds/export",
    report: "/api/card-user/orders/reports/export",
  },
  supplier: {
    orders: "/api/card-brander/supplyOrders/export",
    refunds: "/api/card-brander/supplyRefunds/export",
    report: "/api/card-brander/sup/reports/export",
  },
} as const;

/**
 * The search bar's values of an order or refund list as the call's filters: the date range as UTC+8
 * calendar days, the state select, and the key + text input (order number, goods ID or counterpart ID).
 */
export function orderFilters(values: SearchValues): Query {
  const [from, to] = values.date ?? [];
  const text = values.inpVal?.trim() || undefined;
  const key = values.inpKey ?? "orderNo";
  return {
    from: from ? dayjs(from).format("YYYY-MM-DD") : undefined,
    to: to ? dayjs(to).format("YYYY-MM-DD") : undefined,
    state: typeof values.selVal === "string" ? values.selVal : undefined,
    orderNo: key === "orderNo" ? text : undefined,
    goodsId: key === "goodsId" ? text : undefined,
    counterpartId: key === "counterpartId" ? text : undefined,
  };
}
