import type { Lang } from "./lang";

type Labels = Record<Lang, string>;
const l = (cn: string, tw: string, en: string): Labels => ({ cn, tw, en });

/**
 * Labels of the shared enumerations in the three languages: the source of `GET dict/all`, and of the
 * web app's tags and selects. Keys are dictionary names; values are the enum values.
 */
export const DICT_LABELS = {
  version: {
    domestic: l("中文版", "中文版", "Chinese version"),
    international: l("国际版", "國際版", "International version"),
  },
  userKind: {
    merchant: l("商户", "商戶", "Merchant"),
    customer: l("终端客户", "終端客戶", "End customer"),
    operator: l("平台运营", "平台運營", "Platform operator"),
  },
  merchantRole: {
    sale: l("采购商", "採購商", "Purchaser"),
    business: l("供应商", "供應商", "Supplier"),
    providers: l("服务商", "服務商", "Service provider"),
  },
  realNameState: {
    not_verified: l("未实名", "未實名", "Not real-named"),
    verified: l("已实名", "已實名", "Real-named"),
    expired: l("实名已过期", "實名已過期", "Real-name expired"),
  },
  apiPermission: { opened: l("已开通", "已開通", "Opened"), not_opened: l("未开通", "未開通", "Not opened") },
  currency: {
    CNY: l("人民币", "人民幣", "Chinese yuan"),
    USD: l("美元", "美元", "US dollar"),
    HKD: l("港币", "港幣", "Hong Kong dollar"),
  },
  invoiceType: {
    ordinary_0: l("0%普通发票", "0%普通發票", "0% ordinary invoice"),
    ordinary_1: l("1%普通发票", "1%普通發票", "1% ordinary invoice"),
    ordinary_3: l("3%普通发票", "3%普通發票", "3% ordinary invoice"),
    vat_3: l("3%增值税专用发票", "3%增值稅專用發票", "3% VAT special invoice"),
    vat_6: l("6%增值税专用发票", "6%增值稅專用發票", "6% VAT special invoice"),
    vat_9: l("9%增值税专用发票", "9%增值稅專用發票", "9% VAT special invoice"),
    vat_13: l("13%增值税专用发票", "13%增值稅專用發票", "13% VAT special invoice"),
  },
  businessType: {
    top_up: l("直充", "直充", "Top-up"),
    fuel: l("加油", "加油", "Fuel"),
    takeaway: l("外卖", "外賣", "Takeaway"),
    coupon: l("券码", "券碼", "Coupon"),
    card_voucher: l("卡券", "卡券", "Card voucher"),
    in_store: l("到店", "到店", "In-store"),
    fee: l("缴费", "繳費", "Fee"),
    card_secret: l("卡密", "卡密", "Card secret"),
    self_run_card_secret: l("自营卡密", "自營卡密", "Self-run card secret"),
    combo: l("组合", "組合", "Combo"),
  },
} as const satisfies Record<string, Record<string, Labels>>;

export type DictName = keyof typeof DICT_LABELS;

export function dictionary(lang: Lang): Record<string, { value: string; label: string }[]> {
  const out: Record<string, { value: string; label: string }[]> = {};
  for (const [name, values] of Object.entries(DICT_LABELS)) {
    out[name] = Object.entries(values).map(([value, labels]) => ({ value, label: labels[lang] }));
  }
  return out;
}
