/**
 * Messages of withdrawals and withdrawal bank cards (spec 01 §5 Withdrawal, §8), in the three
 * languages. Merged into MESSAGES by messages.ts.
 */
export const WITHDRAWAL_MESSAGES = {
  "withdraw.amountEmpty": { cn: "请输入提现金额", tw: "請輸入提現金額", en: "Please enter the withdrawal amount" },
  "withdraw.addCardFirst": {
    cn: "请先添加提现银行卡",
    tw: "請先添加提現銀行卡",
    en: "Please add a withdrawal card first",
  },
  "withdraw.cardNotApproved": { cn: "银行卡审核未通过", tw: "銀行卡審核未通過", en: "Bank review not passed" },
  "withdraw.inProgress": {
    cn: "您有一笔提现正在处理中",
    tw: "您有一筆提現正在處理中",
    en: "You have a withdrawal in progress",
  },
  "withdraw.dailyLimit": {
    cn: "您已超过今日提现次数",
    tw: "您已超過今日提現次數",
    en: "You have exceeded today's withdrawal times",
  },
  "withdraw.submitted": { cn: "提现申请已提交", tw: "提現申請已提交", en: "Withdrawal submitted" },
  "withdraw.notFound": { cn: "提现记录不存在", tw: "提現記錄不存在", en: "This withdrawal does not exist" },
  "withdraw.wrongState": {
    cn: "该提现当前状态不能执行此操作",
    tw: "該提現當前狀態不能執行此操作",
    en: "This withdrawal cannot do that in its current state",
  },
  "withdraw.sameReviewer": {
    cn: "复审须由另一位运营人员完成",
    tw: "複審須由另一位運營人員完成",
    en: "The second review must be done by a different operator",
  },
  "withdraw.review.aboveThreshold": {
    cn: "自动结算金额 {{amount}} 超过人工复核线 {{threshold}}，待运营审核",
    tw: "自動結算金額 {{amount}} 超過人工複核線 {{threshold}}，待運營審核",
    en: "The automatic payout of {{amount}} is above the review threshold of {{threshold}}: it waits for an operator",
  },
  "withdraw.review.newMerchant": {
    cn: "商户入驻不满 {{days}} 天，自动结算待运营审核",
    tw: "商戶入駐不滿 {{days}} 天，自動結算待運營審核",
    en: "The merchant joined less than {{days}} days ago: its automatic payout waits for an operator",
  },
  "withdraw.review.reconciliation": {
    cn: "对账差异 {{count}} 笔待运营处理，自动结算暂停",
    tw: "對賬差異 {{count}} 筆待運營處理，自動結算暫停",
    en: "{{count}} reconciliation difference(s) wait for an operator: the automatic payout is held",
  },
  "payments.billHashMismatch": {
    cn: "账单文件校验失败，请稍后重新对账",
    tw: "賬單文件校驗失敗，請稍後重新對賬",
    en: "The bill file failed its hash check; run the reconciliation again later",
  },
  "reconciliation.notFound": { cn: "对账差异不存在", tw: "對賬差異不存在", en: "No such reconciliation difference" },
  "reconciliation.alreadyResolved": {
    cn: "该差异已处理",
    tw: "該差異已處理",
    en: "This difference is already resolved",
  },
  "reconciliation.badDay": {
    cn: "请选择已结束的对账日期",
    tw: "請選擇已結束的對賬日期",
    en: "Choose a day that is already over",
  },
  "reconciliation.reasonRequired": {
    cn: "请填写处理说明",
    tw: "請填寫處理說明",
    en: "Please give the reason for your decision",
  },
  "reconciliation.noBills": {
    cn: "当前支付渠道不提供对账单",
    tw: "當前支付渠道不提供對賬單",
    en: "The payment provider in use gives no bills",
  },
  "payments.notEnabled": {
    cn: "在线支付尚未开通，请联系商家",
    tw: "線上支付尚未開通，請聯繫商家",
    en: "Online payment is not enabled yet; please contact the merchant",
  },
  "payments.providerUnavailable": {
    cn: "支付渠道暂时不可用，请稍后重试",
    tw: "支付渠道暫時不可用，請稍後重試",
    en: "The payment provider is unavailable right now; please try again later",
  },
  "payments.closed": {
    cn: "该支付已关闭，请重新下单",
    tw: "該支付已關閉，請重新下單",
    en: "This payment is closed; please place the order again",
  },
  "payments.refundFailed": {
    cn: "支付渠道退款失败，请稍后重试",
    tw: "支付渠道退款失敗，請稍後重試",
    en: "The payment provider refused the refund; please try again later",
  },
  "withdraw.accountNotAllowed": {
    cn: "该账户不能提现",
    tw: "該賬戶不能提現",
    en: "This account cannot be withdrawn from",
  },
  "card.companyEmpty": { cn: "请输入公司名称", tw: "請輸入公司名稱", en: "Please enter the company name" },
  "card.companyLength": {
    cn: "公司名称为2-100个字符",
    tw: "公司名稱為2-100個字符",
    en: "The company name is 2-100 characters",
  },
  "card.bankEmpty": { cn: "请输入开户银行", tw: "請輸入開戶銀行", en: "Please enter the bank" },
  "card.cityEmpty": { cn: "请输入开户城市", tw: "請輸入開戶城市", en: "Please enter the city" },
  "card.accountEmpty": { cn: "请输入银行账号", tw: "請輸入銀行賬號", en: "Please enter the account number" },
  "card.accountInvalid": {
    cn: "请输入正确的银行账号（6-34位字母或数字）",
    tw: "請輸入正確的銀行賬號（6-34位字母或數字）",
    en: "Please enter a correct account number (6-34 letters or digits)",
  },
  "operator.emailTaken": { cn: "该邮箱已被使用", tw: "該郵箱已被使用", en: "This email is already in use" },
  // transfers between merchants
  "transfer.ownPhoneOnly": {
    cn: "验证码只能发送到您已绑定的手机号",
    tw: "驗證碼只能發送到您已綁定的手機號",
    en: "The code can only be sent to your own bound mobile number",
  },
  "transfer.bindPhoneFirst": { cn: "请先绑定手机号", tw: "請先綁定手機號", en: "Please bind a mobile number first" },
  "transfer.notAuthorised": { cn: "请先完成转账授权", tw: "請先完成轉賬授權", en: "Please authorise transfers first" },
  "transfer.targetEmpty": {
    cn: "请输入收款商户号",
    tw: "請輸入收款商戶號",
    en: "Please enter the receiving merchant ID",
  },
  "transfer.targetNotFound": {
    cn: "收款商户不存在",
    tw: "收款商戶不存在",
    en: "The receiving merchant does not exist",
  },
  "transfer.targetSelf": { cn: "不能转账给自己", tw: "不能轉賬給自己", en: "You cannot transfer to yourself" },
  "transfer.currencyMismatch": {
    cn: "收款商户的结算币种与您不同，不能转账",
    tw: "收款商戶的結算幣種與您不同，不能轉賬",
    en: "The receiving merchant settles in another currency",
  },
  "transfer.contractEmpty": { cn: "请输入合同编号", tw: "請輸入合同編號", en: "Please enter the contract number" },
  "transfer.contractInvalid": {
    cn: "合同编号为1-40位字母、数字或-",
    tw: "合同編號為1-40位字母、數字或-",
    en: "The contract number is 1-40 letters, digits or -",
  },
  "transfer.notFound": { cn: "转账不存在", tw: "轉賬不存在", en: "This transfer does not exist" },
  "transfer.notPending": {
    cn: "该转账已处理，不能再修改",
    tw: "該轉賬已處理，不能再修改",
    en: "This transfer has already been settled",
  },
  "card.textLength": { cn: "不能超过50个字符", tw: "不能超過50個字符", en: "At most 50 characters" },
} as const;
