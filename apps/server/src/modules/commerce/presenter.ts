import { CODE, type CommerceOrder, type Shipment } from "@tessera/contracts";
import { AppError } from "../../platform/http/errors";
import type * as ordersRepo from "./orders.repo";
import { iso } from "../../platform/present";

/** How the commerce services show their rows, and the few helpers they share. */

export const notFoundOrder = () => new AppError(CODE.NOT_FOUND, "commerce.orderNotFound");
export const notFoundCommodity = () => new AppError(CODE.NOT_FOUND, "commerce.commodityNotFound");
export const notFoundAftersale = () => new AppError(CODE.NOT_FOUND, "commerce.afterSaleNotFound");
export { iso };

/** One order as the contract shows it, from its row (times already ISO text), its lines, its shipment and the merchants' names. */
export function presentOrder(
  o: ordersRepo.OrderListRow,
  items: ordersRepo.ItemRow[],
  shipment: Shipment | null,
  names: Map<number, string>,
  autoMs: number,
): CommerceOrder {
  const m = (amount: number) => ({ amount, currency: o.currency });
  return {
    id: String(o.id),
    orderNo: o.order_no,
    kind: o.kind,
    state: o.state,
    purchaserId: String(o.purchaser_id),
    purchaserName: names.get(o.purchaser_id) ?? "",
    brandId: String(o.brand_id),
    brandName: names.get(o.brand_id) ?? "",
    goodsAmount: m(o.goods_amount),
    freight: m(o.freight),
    payAmount: m(o.pay_amount),
    refundedAmount: m(o.refunded_amount),
    consignee:
      o.kind === "physical"
        ? {
            name: o.consignee_name,
            phone: o.consignee_phone,
            provinceCode: o.province_code,
            cityCode: o.city_code,
            countyCode: o.county_code,
            regionNames: o.region_names,
            address: o.address,
          }
        : null,
    remark: o.remark,
    closeReason: o.close_reason,
    items: items.map((i) => ({
      id: String(i.id),
      skuId: String(i.sku_id),
      commodityId: String(i.commodity_id),
      name: i.name,
      specs: i.specs,
      unitPrice: m(i.unit_price),
      quantity: i.quantity,
      amount: m(i.amount),
      refunded: m(i.refunded),
      returnedQty: i.returned_qty,
    })),
    shipment,
    createdAt: o.created_at,
    paidAt: o.paid_at,
    shippedAt: o.shipped_at,
    receivedAt: o.received_at,
    completedAt: o.completed_at,
    closedAt: o.closed_at,
    autoConfirmAt:
      (o.state === "shipped" || o.state === "received") && o.shipped_at
        ? new Date(Date.parse(o.shipped_at) + autoMs).toISOString()
        : null,
  };
}
