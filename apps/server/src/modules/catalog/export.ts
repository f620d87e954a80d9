import { DICT_LABELS, type Goods, type Lang } from "@tessera/contracts";
import type { ExportColumn } from "../../platform/http/export";

const HEADERS: Record<Lang, string[]> = {
  cn: [
    "商品ID",
    "商品名称",
    "商品编码",
    "品牌",
    "业务类型",
    "面值",
    "采购价",
    "结算底价",
    "折扣",
    "发票类型",
    "单次购买数量",
    "权重",
    "平台费率",
    "可用库存",
    "已售",
    "状态",
  ],
  tw: [
    "商品ID",
    "商品名稱",
    "商品編碼",
    "品牌",
    "業務類型",
    "面值",
    "採購價",
    "結算底價",
    "折扣",
    "發票類型",
    "單次購買數量",
    "權重",
    "平台費率",
    "可用庫存",
    "已售",
    "狀態",
  ],
  en: [
    "Goods ID",
    "Name",
    "Code",
    "Brand",
    "Business type",
    "Face value",
    "Purchase price",
    "Settlement base price",
    "Discount",
    "Invoice type",
    "Quantity per order",
    "Weight",
    "Platform rate",
    "Available stock",
    "Sold",
    "Status",
  ],
};
const STATES: Record<Lang, Record<Goods["state"], string>> = {
  cn: { available: "可用", disabled: "停用", void: "作废" },
  tw: { available: "可用", disabled: "停用", void: "作廢" },
  en: { available: "Available", disabled: "Disabled", void: "Void" },
};

/** Money in an export: major units as text with the currency, exact (no float on the way). */
function money(minor: number, currency: string): string {
  return `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, "0")} ${currency}`;
}
const pct = (bp: number) => `${bp / 100}%`;

/** Columns of the supplied-goods export, headed in the user's language. */
export function goodsExportColumns(lang: Lang): ExportColumn<Goods>[] {
  const values: ((g: Goods) => string | number)[] = [
    (g) => g.id,
    (g) => g.name,
    (g) => g.code,
    (g) => g.brandName,
    (g) => DICT_LABELS.businessType[g.businessType][lang],
    (g) => money(g.faceValue, g.currency),
    (g) => money(g.price, g.currency),
    (g) => money(g.settlementPrice, g.currency),
    (g) => pct(g.discountBp),
    (g) => DICT_LABELS.invoiceType[g.invoiceType][lang],
    (g) => g.perOrderMax,
    (g) => g.weight,
    (g) => pct(g.platformRateBp),
    (g) => g.stock,
    (g) => g.sold,
    (g) => STATES[lang][g.state],
  ];
  return HEADERS[lang].map((header, i) => ({ header, value: values[i] ?? (() => "") }));
}
