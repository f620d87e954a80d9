/**
 * Messages of invoices (requests against spend, issue, red-letter reversal, titles and settings), in the
 * three languages. Merged into MESSAGES by messages.ts.
 */
export const INVOICE_MESSAGES = {
  "invoice.typeEmpty": { cn: "请选择发票类型", tw: "請選擇發票類型", en: "Please choose the invoice type" },
  "invoice.emailRequired": {
    cn: "请填写收票邮箱，或在签章设置中填写收票邮箱",
    tw: "請填寫收票郵箱，或在簽章設置中填寫收票郵箱",
    en: "Please give the email to send the invoice to, or set a delivery email in the e-signature settings",
  },
  "invoice.typeUnavailable": {
    cn: "该发票类型当前不可开具",
    tw: "該發票類型當前不可開具",
    en: "This invoice type cannot be issued at present",
  },
  "invoice.overInvoiceable": {
    cn: "开票金额超过可开票金额（可开{{available}}）",
    tw: "開票金額超過可開票金額（可開{{available}}）",
    en: "The amount is more than the invoiceable amount ({{available}} available)",
  },
  "invoice.titleNameEmpty": { cn: "请输入发票抬头", tw: "請輸入發票抬頭", en: "Please enter the invoice title" },
  "invoice.fieldTooLong": { cn: "内容过长", tw: "內容過長", en: "The text is too long" },
  "invoice.taxIdInvalid": {
    cn: "请输入正确的纳税人识别号（18位统一社会信用代码）",
    tw: "請輸入正確的納稅人識別號（18位統一社會信用代碼）",
    en: "Please enter a correct taxpayer ID (the 18-character unified social credit code)",
  },
  "invoice.taxIdRequired": {
    cn: "增值税专用发票须填写纳税人识别号",
    tw: "增值稅專用發票須填寫納稅人識別號",
    en: "A VAT special invoice needs the taxpayer ID",
  },
  "invoice.bankRequired": {
    cn: "增值税专用发票须填写开户银行及账号",
    tw: "增值稅專用發票須填寫開戶銀行及賬號",
    en: "A VAT special invoice needs the bank and account number",
  },
  "invoice.addressRequired": {
    cn: "增值税专用发票须填写地址及电话",
    tw: "增值稅專用發票須填寫地址及電話",
    en: "A VAT special invoice needs the address and phone",
  },
  "invoice.bankAccountInvalid": {
    cn: "请输入正确的银行账号",
    tw: "請輸入正確的銀行賬號",
    en: "Please enter a correct bank account number",
  },
  "invoice.phoneInvalid": {
    cn: "请输入正确的电话号码",
    tw: "請輸入正確的電話號碼",
    en: "Please enter a correct phone number",
  },
  "invoice.notFound": { cn: "发票不存在", tw: "發票不存在", en: "The invoice does not exist" },
  "invoice.notRequested": {
    cn: "该发票申请已处理",
    tw: "該發票申請已處理",
    en: "This invoice request has already been handled",
  },
  "invoice.notIssued": {
    cn: "只有已开具的发票可以红冲",
    tw: "只有已開具的發票可以紅沖",
    en: "Only an issued invoice can be reversed",
  },
  "invoice.noPdf": { cn: "发票尚未开具", tw: "發票尚未開具", en: "The invoice has not been issued yet" },
  "invoice.titleNotFound": { cn: "发票抬头不存在", tw: "發票抬頭不存在", en: "The invoice title does not exist" },
  "invoice.titleLimit": {
    cn: "最多保存{{max}}个发票抬头",
    tw: "最多保存{{max}}個發票抬頭",
    en: "At most {{max}} invoice titles can be saved",
  },
  "invoice.currencyUnsupported": {
    cn: "发票仅支持人民币结算的账户",
    tw: "發票僅支持人民幣結算的賬戶",
    en: "Invoices are issued only for accounts settling in yuan",
  },
} as const;
