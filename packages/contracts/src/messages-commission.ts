/**
 * Messages of service-provider commission (rules, monthly close, statements), in the three languages.
 * Merged into MESSAGES by messages.ts.
 */
export const COMMISSION_MESSAGES = {
  "commission.periodInvalid": { cn: "请选择正确的月份", tw: "請選擇正確的月份", en: "Please choose a correct month" },
  "commission.periodOpen": {
    cn: "该月份尚未结束，不能结算",
    tw: "該月份尚未結束，不能結算",
    en: "This month has not ended yet and cannot be closed",
  },
  "commission.providerEmpty": {
    cn: "请输入服务商ID",
    tw: "請輸入服務商ID",
    en: "Please enter the service provider ID",
  },
  "commission.providerNotFound": { cn: "服务商不存在", tw: "服務商不存在", en: "The service provider does not exist" },
  "commission.brandInvalid": { cn: "品牌不存在", tw: "品牌不存在", en: "The brand does not exist" },
  "commission.rateInvalid": {
    cn: "佣金比例须在0%到50%之间",
    tw: "傭金比例須在0%到50%之間",
    en: "The commission rate must be between 0% and 50%",
  },
  "commission.dateInvalid": { cn: "请输入正确的日期", tw: "請輸入正確的日期", en: "Please enter a correct date" },
  "commission.dateRangeInvalid": {
    cn: "结束日期不能早于开始日期",
    tw: "結束日期不能早於開始日期",
    en: "The end date cannot be before the start date",
  },
  "commission.ruleOverlap": {
    cn: "与同一范围的另一条佣金规则有效期重叠",
    tw: "與同一範圍的另一條傭金規則有效期重疊",
    en: "The validity overlaps another commission rule for the same scope",
  },
  "commission.ruleNotFound": { cn: "佣金规则不存在", tw: "傭金規則不存在", en: "The commission rule does not exist" },
  "commission.statementNotFound": {
    cn: "佣金账单不存在",
    tw: "傭金賬單不存在",
    en: "The commission statement does not exist",
  },
  "commission.notDraft": {
    cn: "该账单已确认或无需支付",
    tw: "該賬單已確認或無需支付",
    en: "This statement has already been confirmed or has nothing to pay",
  },
  "commission.onHold": {
    cn: "该账单处于退款保留期，{{payableFrom}}起可确认结算",
    tw: "該賬單處於退款保留期，{{payableFrom}}起可確認結算",
    en: "This statement is held for refunds and can be confirmed from {{payableFrom}}",
  },
} as const;

/** Messages of purchaser rebates. */
export const REBATE_MESSAGES = {
  "rebate.tierInvalid": {
    cn: "请填写正确的返利阶梯（月采购额及0.01%-50%的返利比例）",
    tw: "請填寫正確的返利階梯（月採購額及0.01%-50%的返利比例）",
    en: "Please give correct rebate tiers (a monthly volume and a rate of 0.01%-50%)",
  },
  "rebate.tiersOrder": {
    cn: "返利阶梯须按采购额从低到高排列",
    tw: "返利階梯須按採購額從低到高排列",
    en: "Rebate tiers must rise by volume",
  },
  "rebate.purchaserNotFound": { cn: "采购商不存在", tw: "採購商不存在", en: "The purchaser does not exist" },
  "rebate.goodsNotFound": { cn: "商品不存在", tw: "商品不存在", en: "The goods does not exist" },
  "rebate.ruleOverlap": {
    cn: "与同一范围的另一条返利规则有效期重叠",
    tw: "與同一範圍的另一條返利規則有效期重疊",
    en: "The validity overlaps another rebate rule for the same scope",
  },
  "rebate.ruleNotFound": { cn: "返利规则不存在", tw: "返利規則不存在", en: "The rebate rule does not exist" },
  "order.rebateInsufficient": {
    cn: "返利账户余额不足",
    tw: "返利賬戶餘額不足",
    en: "Insufficient balance in the rebate account",
  },
  "order.payFromInvalid": {
    cn: "请选择付款账户（SUP账户或返利账户）",
    tw: "請選擇付款賬戶（SUP賬戶或返利賬戶）",
    en: "Please choose the paying account (SUP or rebate account)",
  },
} as const;
