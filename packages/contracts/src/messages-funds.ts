/**
 * Messages of the funds module (top-ups, reserve transfers, manual credits, fund-change lists), in the
 * three languages. Merged into MESSAGES by messages.ts.
 */
export const FUNDS_MESSAGES = {
  "funds.amountEmpty": { cn: "请输入金额", tw: "請輸入金額", en: "Please enter the amount" },
  "funds.amountInvalid": {
    cn: "金额须大于0，最多两位小数",
    tw: "金額須大於0，最多兩位小數",
    en: "The amount must be greater than 0 with at most two decimals",
  },
  "funds.amountTooLarge": {
    cn: "单笔金额不能超过1亿",
    tw: "單筆金額不能超過1億",
    en: "A single amount cannot exceed 100,000,000",
  },
  "funds.payerTypeEmpty": { cn: "请选择类型", tw: "請選擇類型", en: "Please choose the type" },
  "funds.payerNameEmpty": { cn: "请输入名称", tw: "請輸入名稱", en: "Please enter the name" },
  "funds.payerNameInvalid": {
    cn: "请输入正确的名称（2-100个字符）",
    tw: "請輸入正確的名稱（2-100個字符）",
    en: "Please enter a correct name (2-100 characters)",
  },
  "funds.idNumberEmpty": { cn: "请输入证件号码", tw: "請輸入證件號碼", en: "Please enter the ID number" },
  "funds.idNumberInvalid": {
    cn: "请输入正确的身份证号（15或18位）",
    tw: "請輸入正確的身份證號（15或18位）",
    en: "Please enter a correct national ID number (15 or 18 digits)",
  },
  "funds.otherAccountEmpty": { cn: "请输入付款账号", tw: "請輸入付款賬號", en: "Please enter the paying account" },
  "funds.otherAccountInvalid": {
    cn: "请输入正确的付款账号（6-34位字母或数字）",
    tw: "請輸入正確的付款賬號（6-34位字母或數字）",
    en: "Please enter a correct paying account (6-34 letters or digits)",
  },
  "funds.transferRefEmpty": {
    cn: "请输入转账流水号",
    tw: "請輸入轉賬流水號",
    en: "Please enter the transfer reference",
  },
  "funds.transferRefInvalid": {
    cn: "转账流水号为1-64位字母、数字或-",
    tw: "轉賬流水號為1-64位字母、數字或-",
    en: "The transfer reference is 1-64 letters, digits or -",
  },
  "funds.confirmRequired": {
    cn: "请确认信息无误后提交",
    tw: "請確認信息無誤後提交",
    en: "Please confirm the details before submitting",
  },
  "funds.reasonEmpty": { cn: "请输入原因", tw: "請輸入原因", en: "Please enter the reason" },
  "funds.reasonLength": {
    cn: "原因不能超过200个字符",
    tw: "原因不能超過200個字符",
    en: "The reason cannot exceed 200 characters",
  },
  "funds.requestKeyInvalid": {
    cn: "请求编号须为8-64位字母、数字、-或_",
    tw: "請求編號須為8-64位字母、數字、-或_",
    en: "The request key must be 8-64 letters, digits, - or _",
  },
  "funds.topUpNotFound": { cn: "充值单不存在", tw: "充值單不存在", en: "This top-up notice does not exist" },
  "funds.topUpAlreadyReviewed": {
    cn: "该充值单已审核",
    tw: "該充值單已審核",
    en: "This top-up notice has already been reviewed",
  },
  "funds.proofInvalid": {
    cn: "转账凭证须为JPG、PNG、WebP或GIF图片，不超过5MB",
    tw: "轉賬憑證須為JPG、PNG、WebP或GIF圖片，不超過5MB",
    en: "The transfer proof must be a JPG, PNG, WebP or GIF image of at most 5 MB",
  },
  "funds.proofNotFound": {
    cn: "转账凭证不存在，请重新上传",
    tw: "轉賬憑證不存在，請重新上傳",
    en: "The transfer proof was not found; please upload it again",
  },
  "funds.merchantNotFound": { cn: "商户不存在", tw: "商戶不存在", en: "This merchant does not exist" },
  "funds.dateRangeInvalid": {
    cn: "开始日期不能晚于结束日期",
    tw: "開始日期不能晚於結束日期",
    en: "The start date cannot be after the end date",
  },
  "funds.periodTooLong": {
    cn: "查询区间不能超过3年",
    tw: "查詢區間不能超過3年",
    en: "The period cannot exceed three years",
  },
  "funds.amountRangeInvalid": {
    cn: "最小金额不能大于最大金额",
    tw: "最小金額不能大於最大金額",
    en: "The minimum amount cannot exceed the maximum",
  },
  // change types in exported fund-change lists
  "fundType.top_up": { cn: "充值", tw: "充值", en: "Top-up" },
  "fundType.top_up_fee": { cn: "充值手续费", tw: "充值手續費", en: "Top-up fee" },
  "fundType.top_up_refund": { cn: "充值退款", tw: "充值退款", en: "Top-up refund" },
  "fundType.manual_credit": { cn: "手工入账", tw: "手工入賬", en: "Manual credit" },
  "fundType.reserve_transfer": { cn: "备付金划转", tw: "備付金劃轉", en: "Reserve transfer" },
  "fundType.withdrawal_hold": { cn: "提现冻结", tw: "提現凍結", en: "Withdrawal" },
  "fundType.withdrawal_release": { cn: "提现退回", tw: "提現退回", en: "Withdrawal returned" },
  "fundType.withdrawal_payout": { cn: "提现出款", tw: "提現出款", en: "Withdrawal paid" },
  "fundType.purchase": { cn: "采购", tw: "採購", en: "Purchase" },
  "fundType.refund": { cn: "退款", tw: "退款", en: "Refund" },
  "fundType.transfer": { cn: "转账", tw: "轉賬", en: "Transfer" },
  "fundType.commission": { cn: "服务商佣金", tw: "服務商傭金", en: "Commission" },
  "fundType.rebate": { cn: "采购返利", tw: "採購返利", en: "Rebate" },
  "fundType.store_settlement": { cn: "门店核销结算", tw: "門店核銷結算", en: "Store settlement" },
  "fundType.card_sale": { cn: "一卡通售卡", tw: "一卡通售卡", en: "Card sale" },
  "fundType.card_activation": { cn: "一卡通激活", tw: "一卡通激活", en: "Card activation" },
  "fundType.collection_payment": { cn: "收款", tw: "收款", en: "Collection payment" },
  "fundType.takeout_sale": { cn: "外卖销售", tw: "外賣銷售", en: "Takeout sale" },
  "fundType.mall_sale": { cn: "商城销售", tw: "商城銷售", en: "Mall sale" },
  // Fund-change reasons written as a message key and its parameters (ledgerReason), rendered in the reader's language.
  "ledgerReason.cardActivation": {
    cn: "一卡通激活{{count}}张",
    tw: "一卡通激活{{count}}張",
    en: "{{count}} one-card card(s) activated",
  },
  "ledgerReason.cardReturn": { cn: "一卡通退卡", tw: "一卡通退卡", en: "One-card cards returned" },
  "ledgerReason.collection": { cn: "收款：{{name}}", tw: "收款：{{name}}", en: "Collected: {{name}}" },
  "ledgerReason.collectionRefund": {
    cn: "收款退款：{{orderNo}}",
    tw: "收款退款：{{orderNo}}",
    en: "Collection refund: {{orderNo}}",
  },
  "ledgerReason.storeSettlement": {
    cn: "{{day}} 门店核销结算：{{store}}",
    tw: "{{day}} 門店核銷結算：{{store}}",
    en: "Store settlement {{day}}: {{store}}",
  },
} as const;
