import type { Lang, OrderReportRow, PurchaseOrder, RefundOrder } from "@tessera/contracts";
import { renderMessage } from "@tessera/contracts";
import type { ExportColumn } from "../../platform/http/export";

/**
 * Columns of the xlsx exports of the order lists (spec 01 §3 Purchase order, Refund order, Reports),
 * in the reader's language; the same pattern as the fund-change export. Money in major units.
 */
const major = (n: number) => n / 100;
const time = (iso: string | null) => (iso ? new Date(iso) : null);
const yesNo = (v: boolean, lang: Lang) => renderMessage(v ? "export.yes" : "export.no", lang);

const ORDER_HEADERS = {
  cn: [
    "时间",
    "订单号",
    "商品ID",
    "商品名称",
    "业务类型",
    "采购商",
    "供应商ID",
    "供应商",
    "单价",
    "数量",
    "金额",
    "币种",
    "状态",
    "充值账号",
    "上游渠道ID",
    "失败原因",
    "已退款",
    "完成时间",
  ],
  tw: [
    "時間",
    "訂單號",
    "商品ID",
    "商品名稱",
    "業務類型",
    "採購商",
    "供應商ID",
    "供應商",
    "單價",
    "數量",
    "金額",
    "幣種",
    "狀態",
    "充值賬號",
    "上游渠道ID",
    "失敗原因",
    "已退款",
    "完成時間",
  ],
  en: [
    "Time",
    "Order number",
    "Goods ID",
    "Goods name",
    "Business type",
    "Purchaser",
    "Supplier ID",
    "Supplier",
    "Price",
    "Quantity",
    "Amount",
    "Currency",
    "Status",
    "Top-up account",
    "Upstream channel ID",
    "Failure reason",
    "Refunded",
    "Finished at",
  ],
} as const;

export function orderColumns(lang: Lang): ExportColumn<PurchaseOrder>[] {
  const h = ORDER_HEADERS[lang];
  const v: ((o: PurchaseOrder) => string | number | Date | null)[] = [
    (o) => time(o.createdAt),
    (o) => o.orderNo,
    (o) => o.goodsId,
    (o) => o.goodsName,
    (o) => o.businessType,
    (o) => `${o.purchaserName} (${o.purchaserId})`,
    (o) => o.supplierId,
    (o) => o.supplierName,
    (o) => major(o.unitPrice.amount),
    (o) => o.quantity,
    (o) => major(o.amount.amount),
    (o) => o.amount.currency,
    (o) => renderMessage(`orderState.${o.state}`, lang),
    (o) => o.topUpAccount,
    (o) => o.upstreamChannelId,
    (o) => o.failReason,
    (o) => yesNo(o.refunded, lang),
    (o) => time(o.finishedAt),
  ];
  return h.map((header, i) => ({ header, width: i === 1 || i === 3 ? 28 : 18, value: v[i] ?? (() => null) }));
}

const REFUND_HEADERS = {
  cn: [
    "退款时间",
    "充值账号",
    "退款金额",
    "订单ID",
    "订单号",
    "订单金额",
    "商品名称",
    "单价",
    "数量",
    "币种",
    "状态",
    "原因",
    "失败原因",
    "供应商ID",
    "采购商ID",
    "完成时间",
  ],
  tw: [
    "退款時間",
    "充值賬號",
    "退款金額",
    "訂單ID",
    "訂單號",
    "訂單金額",
    "商品名稱",
    "單價",
    "數量",
    "幣種",
    "狀態",
    "原因",
    "失敗原因",
    "供應商ID",
    "採購商ID",
    "完成時間",
  ],
  en: [
    "Refund time",
    "Top-up account",
    "Refund amount",
    "Order ID",
    "Order number",
    "Order amount",
    "Goods name",
    "Price",
    "Quantity",
    "Currency",
    "Status",
    "Reason",
    "Failure reason",
    "Supplier ID",
    "Purchaser ID",
    "Finished at",
  ],
} as const;

export function refundColumns(lang: Lang): ExportColumn<RefundOrder>[] {
  const h = REFUND_HEADERS[lang];
  const v: ((r: RefundOrder) => string | number | Date | null)[] = [
    (r) => time(r.createdAt),
    (r) => r.topUpAccount,
    (r) => major(r.amount.amount),
    (r) => r.orderId,
    (r) => r.orderNo,
    (r) => major(r.orderAmount.amount),
    (r) => r.goodsName,
    (r) => (r.quantity > 0 ? major(r.amount.amount / r.quantity) : null),
    (r) => r.quantity,
    (r) => r.amount.currency,
    (r) => renderMessage(`refundState.${r.state}`, lang),
    (r) => r.reason,
    (r) => r.failReason,
    (r) => r.supplierId,
    (r) => r.purchaserId,
    (r) => time(r.finishedAt),
  ];
  return h.map((header, i) => ({ header, width: i === 4 || i === 6 ? 28 : 16, value: v[i] ?? (() => null) }));
}

const REPORT_HEADERS = {
  cn: ["时间", "供应商ID", "供应商", "订单数", "数量", "面值金额", "{kind}金额", "币种", "账户类型"],
  tw: ["時間", "供應商ID", "供應商", "訂單數", "數量", "面值金額", "{kind}金額", "幣種", "賬戶類型"],
  en: [
    "Time",
    "Supplier ID",
    "Supplier",
    "Orders",
    "Quantity",
    "Face amount",
    "{kind} amount",
    "Currency",
    "Account type",
  ],
} as const;
const KIND = {
  cn: { purchase: "采购", refund: "退款" },
  tw: { purchase: "採購", refund: "退款" },
  en: { purchase: "Purchase", refund: "Refund" },
} as const;

export function reportColumns(lang: Lang, kind: "purchase" | "refund"): ExportColumn<OrderReportRow>[] {
  const h = REPORT_HEADERS[lang].map((x) => x.replace("{kind}", KIND[lang][kind]));
  const v: ((r: OrderReportRow) => string | number | null)[] = [
    (r) => r.period,
    (r) => r.supplierId,
    (r) => r.supplierName,
    (r) => r.orders,
    (r) => r.quantity,
    (r) => major(r.faceAmount),
    (r) => major(r.amount),
    (r) => r.currency,
    () => "SUP",
  ];
  return h.map((header, i) => ({ header, width: 18, value: v[i] ?? (() => null) }));
}
