import { Tag } from "antd";
import type { TFunction } from "i18next";
import type { AfterSaleState, CommerceOrderState, Commodity } from "@tessera/contracts";
import { formatMoney } from "../../ui/money";

const ORDER_COLOR: Record<CommerceOrderState, string> = {
  to_pay: "orange",
  to_ship: "blue",
  shipped: "geekblue",
  received: "cyan",
  completed: "green",
  closed: "default",
};
const AS_COLOR: Record<AfterSaleState, string> = {
  apply: "orange",
  seller_agree: "blue",
  buyer_delivery: "geekblue",
  wait_refund: "purple",
  complete: "green",
  buyer_cancel: "default",
  seller_disagree: "red",
  seller_refuse: "red",
};

export const OrderStateTag = ({ state, t }: { state: CommerceOrderState; t: TFunction }) => (
  <Tag color={ORDER_COLOR[state]}>{t(`commerce.state.${state}`)}</Tag>
);
export const AftersaleStateTag = ({ state, t }: { state: AfterSaleState; t: TFunction }) => (
  <Tag color={AS_COLOR[state]}>{t(`commerce.as.state.${state}`)}</Tag>
);

/** "59.00" or "59.00 – 62.00" over a commodity's SKUs. */
export function priceRange(c: Commodity): string {
  const prices = c.skus.map((s) => s.price.amount);
  if (prices.length === 0) return "—";
  const lo = Math.min(...prices);
  const hi = Math.max(...prices);
  const f = (amount: number) => formatMoney({ amount, currency: c.skus[0]?.price.currency ?? "CNY" });
  return lo === hi ? f(lo) : `${f(lo)} – ${f(hi)}`;
}

export const skuLabel = (specs: string[]): string => (specs.length ? specs.join(" / ") : "—");
