/** Messages of payment collection (issue 27), in the three languages. Merged into MESSAGES by messages.ts. */
export const COLLECTION_MESSAGES = {
  "collection.companyEmpty": { cn: "请输入主体名称", tw: "請輸入主體名稱", en: "Please enter the company name" },
  "collection.creditCodeInvalid": {
    cn: "请输入18位统一社会信用代码",
    tw: "請輸入18位統一社會信用代碼",
    en: "Please enter the 18-character unified social credit code",
  },
  "collection.legalEmpty": {
    cn: "请输入法定代表人",
    tw: "請輸入法定代表人",
    en: "Please enter the legal representative",
  },
  "collection.idNoInvalid": {
    cn: "请输入正确的身份证号",
    tw: "請輸入正確的身分證號",
    en: "Please enter a valid ID card number",
  },
  "collection.contactEmpty": { cn: "请输入联系人", tw: "請輸入聯絡人", en: "Please enter the contact person" },
  "collection.phoneInvalid": {
    cn: "请输入正确的手机号",
    tw: "請輸入正確的手機號",
    en: "Please enter a valid mobile number",
  },
  "collection.industryEmpty": { cn: "请选择行业", tw: "請選擇行業", en: "Please choose the industry" },
  "collection.bankEmpty": { cn: "请输入开户银行", tw: "請輸入開戶銀行", en: "Please enter the bank" },
  "collection.bankAccountInvalid": {
    cn: "请输入正确的结算银行账号",
    tw: "請輸入正確的結算銀行帳號",
    en: "Please enter a valid settlement bank account",
  },
  "collection.accountNameEmpty": { cn: "请输入开户名称", tw: "請輸入開戶名稱", en: "Please enter the account name" },
  "collection.licenceEmpty": { cn: "请上传营业执照", tw: "請上傳營業執照", en: "Please upload the business licence" },
  "collection.idCardFrontEmpty": {
    cn: "请上传法人身份证人像面",
    tw: "請上傳法人身分證人像面",
    en: "Please upload the front (portrait side) of the legal person's ID card",
  },
  "collection.idCardBackEmpty": {
    cn: "请上传法人身份证国徽面",
    tw: "請上傳法人身分證國徽面",
    en: "Please upload the back (national emblem side) of the legal person's ID card",
  },
  "collection.textTooLong": { cn: "内容过长", tw: "內容過長", en: "The text is too long" },
  "collection.imageInvalid": {
    cn: "请上传JPG或PNG图片（不超过5MB）",
    tw: "請上傳JPG或PNG圖片（不超過5MB）",
    en: "Please upload a JPG or PNG image (at most 5 MB)",
  },
  "collection.notEditable": {
    cn: "申请当前状态不可修改",
    tw: "申請目前狀態不可修改",
    en: "The application cannot be changed in its current state",
  },
  "collection.wrongState": {
    cn: "申请当前状态不能进行此操作",
    tw: "申請目前狀態不能進行此操作",
    en: "The application's state does not allow this",
  },
  "collection.notFound": { cn: "进件申请不存在", tw: "進件申請不存在", en: "The application does not exist" },
  "collection.notFinished": {
    cn: "请先完成聚合进件",
    tw: "請先完成聚合進件",
    en: "Please finish the aggregated onboarding first",
  },
  "collection.signLinkInvalid": {
    cn: "签约链接无效或已使用",
    tw: "簽約連結無效或已使用",
    en: "The signing link is not valid or was used",
  },
  "collection.passportNotYours": { cn: "该账号不属于您", tw: "該帳號不屬於您", en: "The account is not yours" },
  "collection.codeNameEmpty": {
    cn: "请输入收款码名称",
    tw: "請輸入收款碼名稱",
    en: "Please enter the collection code name",
  },
  "collection.codeNotFound": {
    cn: "收款码不存在或已停用",
    tw: "收款碼不存在或已停用",
    en: "The collection code does not exist or is retired",
  },
  "collection.amountInvalid": { cn: "请输入正确的金额", tw: "請輸入正確的金額", en: "Please enter a correct amount" },
  "collection.amountFixed": {
    cn: "该收款码的金额为 {{amount}}，不能修改",
    tw: "該收款碼的金額為 {{amount}}，不能修改",
    en: "This code collects {{amount}}; the amount cannot be changed",
  },
  "collection.overLimit": {
    cn: "单笔金额不能超过 {{limit}}",
    tw: "單筆金額不能超過 {{limit}}",
    en: "A single payment cannot exceed {{limit}}",
  },
  "collection.amountTooLarge": {
    cn: "单笔金额不能超过5万元",
    tw: "單筆金額不能超過5萬元",
    en: "A payment cannot exceed 50,000",
  },
  "collection.orderNotFound": { cn: "收款订单不存在", tw: "收款訂單不存在", en: "The payment order does not exist" },
  "collection.refundInvalid": {
    cn: "请输入正确的退款金额",
    tw: "請輸入正確的退款金額",
    en: "Please enter a correct refund amount",
  },
  "collection.refundTooLarge": {
    cn: "退款金额超过可退金额",
    tw: "退款金額超過可退金額",
    en: "The refund is more than what can still be refunded",
  },
  "collection.notPaid": {
    cn: "订单未支付，不能退款",
    tw: "訂單未支付，不能退款",
    en: "The order is not paid and cannot be refunded",
  },
  "collection.refundFunds": {
    cn: "商户余额不足，退款失败",
    tw: "商戶餘額不足，退款失敗",
    en: "The merchant's balance is not enough for the refund",
  },
  "collection.refundProvider": {
    cn: "支付渠道退款失败，款项已退回商户余额",
    tw: "支付渠道退款失敗，款項已退回商戶餘額",
    en: "The payment provider could not refund; the money is back in the merchant's balance",
  },
} as const;
