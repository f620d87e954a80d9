import type { Lang } from "./lang";
import { ONBOARDING_MESSAGES } from "./messages-onboarding";
import { CATALOG_MESSAGES } from "./messages-catalog";
import { FUNDS_MESSAGES } from "./messages-funds";
import { WITHDRAWAL_MESSAGES } from "./messages-withdrawals";
import { PURCHASING_MESSAGES } from "./messages-purchasing";
import { MEDIA_MESSAGES } from "./messages-media";
import { ORDER_CHAT_MESSAGES } from "./messages-orderchat";
import { ONECARD_MESSAGES } from "./messages-onecard";
import { INVOICE_MESSAGES } from "./messages-invoices";
import { COMMISSION_MESSAGES, REBATE_MESSAGES } from "./messages-commission";
import { DEVELOPER_MESSAGES } from "./messages-developer";
import { COMMERCE_MESSAGES } from "./messages-commerce";

import { STORES_MESSAGES } from "./messages-stores";
import { COLLECTION_MESSAGES } from "./messages-collection";
import { MINIPROGRAM_MESSAGES } from "./messages-miniprogram";
import { MALL_MESSAGES } from "./messages-mall";
import { PROVIDER_OPS_MESSAGES } from "./messages-providerops";
/**
 * Every message the server may send to a user, in the three languages. The web app loads the same
 * catalogue into i18next (namespace `msg`) so a form shows exactly what the server would answer.
 * Placeholders use the i18next form `{{name}}`.
 */
export const MESSAGES = {
  // spec 01 §5: account forms
  "validation.emailEmpty": { cn: "邮箱不能为空", tw: "郵箱不能為空", en: "Email cannot be empty" },
  "validation.emailFormat": {
    cn: "请输入正确的邮箱",
    tw: "請輸入正確的郵箱",
    en: "Please enter a correct email address",
  },
  "validation.passwordEmpty": { cn: "密码不能为空", tw: "密碼不能為空", en: "Password cannot be empty" },
  "validation.passwordLength": {
    cn: "密码长度为3-21个字符",
    tw: "密碼長度為3-21個字符",
    en: "Password length is 3-21 characters",
  },
  "validation.passwordWeak": {
    cn: "密码强度弱，请重新设置",
    tw: "密碼強度弱，請重新設置",
    en: "Password strength is weak, please reset",
  },
  "validation.passwordRule": {
    cn: "至少8位，包含大写字母、小写字母、数字、特殊字符中的三种",
    tw: "至少8位，包含大寫字母、小寫字母、數字、特殊字符中的三種",
    en: "At least 8 characters with three of: uppercase, lowercase, digit, special character",
  },
  "validation.confirmPasswordEmpty": {
    cn: "请再次输入密码",
    tw: "請再次輸入密碼",
    en: "Please enter the password again",
  },
  "validation.passwordMismatch": {
    cn: "两次输入的密码不一致",
    tw: "兩次輸入的密碼不一致",
    en: "The two passwords are inconsistent",
  },
  "validation.emailCodeEmpty": {
    cn: "邮箱验证码不能为空",
    tw: "郵箱驗證碼不能為空",
    en: "Email verification code cannot be empty",
  },
  "validation.smsCodeEmpty": {
    cn: "短信验证码不能为空",
    tw: "短信驗證碼不能為空",
    en: "SMS verification code cannot be empty",
  },
  "validation.orgNameEmpty": {
    cn: "组织名称不能为空",
    tw: "組織名稱不能為空",
    en: "Organisation name cannot be empty",
  },
  "validation.orgNameLength": {
    cn: "组织名称不能超过100个字符",
    tw: "組織名稱不能超過100個字符",
    en: "Organisation name cannot exceed 100 characters",
  },
  "validation.countryEmpty": {
    cn: "请选择组织所在国家或地区",
    tw: "請選擇組織所在國家或地區",
    en: "Please choose the organisation's country or region",
  },
  "validation.countryNotAllowed": {
    cn: "国际版仅向中国香港、新加坡、欧洲和美洲的合法企业开放注册",
    tw: "國際版僅向中國香港、新加坡、歐洲和美洲的合法企業開放註冊",
    en: "The international version is open only to businesses in Hong Kong, Singapore, Europe and the Americas",
  },
  "validation.currencyEmpty": {
    cn: "请选择结算币种",
    tw: "請選擇結算幣種",
    en: "Please choose the settlement currency",
  },
  "validation.currencyInvalid": {
    cn: "国际版结算币种只能为美元或港币",
    tw: "國際版結算幣種只能為美元或港幣",
    en: "International accounts settle in US dollars or Hong Kong dollars",
  },
  "validation.mobileEmpty": { cn: "手机号不能为空", tw: "手機號不能為空", en: "Mobile number cannot be empty" },
  "validation.mobileFormat": {
    cn: "请输入正确的手机号",
    tw: "請輸入正確的手機號",
    en: "Please enter a correct mobile number",
  },
  "validation.invalidParameter": {
    cn: "参数错误：{{field}}",
    tw: "參數錯誤：{{field}}",
    en: "Invalid parameter: {{field}}",
  },
  "validation.nothingToChange": {
    cn: "没有要修改的内容",
    tw: "沒有要修改的內容",
    en: "Nothing to change: give at least one field",
  },
  "validation.pageSize": {
    cn: "每页条数只能为20、50、100、200或1000",
    tw: "每頁條數只能為20、50、100、200或1000",
    en: "Page size must be 20, 50, 100, 200 or 1000",
  },

  // verification codes
  "code.invalid": {
    cn: "验证码错误或已失效",
    tw: "驗證碼錯誤或已失效",
    en: "The verification code is wrong or has expired",
  },
  "code.tooFrequent": {
    cn: "发送过于频繁，请{{seconds}}秒后再试",
    tw: "發送過於頻繁，請{{seconds}}秒後再試",
    en: "Sent too often, please try again in {{seconds}} seconds",
  },
  // Every code names what it is for (issue 40, item 10): {{purpose}} is one of code.purpose.*.
  "code.emailSubject": {
    cn: "Tessera {{purpose}}验证码",
    tw: "Tessera {{purpose}}驗證碼",
    en: "Tessera code to {{purpose}}",
  },
  "code.emailBody": {
    cn: "您正在{{purpose}}，验证码是 {{code}}，{{minutes}}分钟内有效，仅可使用一次。如非本人操作，请忽略。",
    tw: "您正在{{purpose}}，驗證碼是 {{code}}，{{minutes}}分鐘內有效，僅可使用一次。如非本人操作，請忽略。",
    en: "Your code to {{purpose}} is {{code}}. It is valid for {{minutes}} minutes and can be used once. If you did not ask for it, ignore this message.",
  },
  "code.smsBody": {
    cn: "【Tessera】验证码 {{code}}，用于{{purpose}}，{{minutes}}分钟内有效，请勿告诉他人。",
    tw: "【Tessera】驗證碼 {{code}}，用於{{purpose}}，{{minutes}}分鐘內有效，請勿告訴他人。",
    en: "[Tessera] Code {{code}} to {{purpose}}, valid for {{minutes}} minutes. Do not share it.",
  },
  // SMS through a provider (issue 41): a send it refused or could not take; nothing else was changed.
  "sms.sendFailed": {
    cn: "短信发送失败，请稍后重试",
    tw: "短信發送失敗，請稍後重試",
    en: "The text message could not be sent. Please try again later",
  },
  "sms.tooFrequent": {
    cn: "该手机号接收短信过于频繁，请稍后再试",
    tw: "該手機號接收短信過於頻繁，請稍後再試",
    en: "This number has received too many text messages. Please try again later",
  },
  "code.purpose.register": { cn: "注册账号", tw: "註冊賬號", en: "register your account" },
  "code.purpose.resetPassword": { cn: "重置登录密码", tw: "重置登錄密碼", en: "reset your password" },
  "code.purpose.changeEmail": { cn: "更换邮箱", tw: "更換郵箱", en: "change your email" },
  "code.purpose.bindPhone": { cn: "绑定手机号", tw: "綁定手機號", en: "bind your mobile number" },
  "code.purpose.signAgreement": { cn: "签署协议", tw: "簽署協議", en: "sign an agreement" },
  "code.purpose.transitAuth": { cn: "授权转账", tw: "授權轉賬", en: "authorise a transfer" },
  "code.purpose.viewApiSecret": { cn: "查看API密钥", tw: "查看API密鑰", en: "view your API secret" },
  "code.purpose.customerLogin": { cn: "登录卡包", tw: "登錄卡包", en: "log in to your card bag" },
  "code.purpose.cardPassword": { cn: "重置卡密码", tw: "重置卡密碼", en: "reset your card password" },

  // accounts
  "account.emailTaken": { cn: "该邮箱已注册", tw: "該郵箱已註冊", en: "This email is already registered" },
  "account.emailUnknown": { cn: "该邮箱未注册", tw: "該郵箱未註冊", en: "This email is not registered" },
  "account.phoneTaken": { cn: "该手机号已被绑定", tw: "該手機號已被綁定", en: "This mobile number is already bound" },
  "account.loginFailed": { cn: "账号或密码错误", tw: "賬號或密碼錯誤", en: "Wrong account or password" },
  "account.loginSlowed": {
    cn: "登录失败次数过多，请{{seconds}}秒后再试",
    tw: "登錄失敗次數過多，請{{seconds}}秒後再試",
    en: "Too many failed logins, please try again in {{seconds}} seconds",
  },
  "account.loginLocked": {
    cn: "登录失败次数过多，账号已锁定，请{{minutes}}分钟后再试",
    tw: "登錄失敗次數過多，賬號已鎖定，請{{minutes}}分鐘後再試",
    en: "Too many failed logins; the account is locked, please try again in {{minutes}} minutes",
  },
  "account.wrongVersionInternational": {
    cn: "该账号注册于国际版，请在国际版登录",
    tw: "該賬號註冊於國際版，請在國際版登錄",
    en: "This account was registered in the international version; please log in there",
  },
  "account.wrongVersionDomestic": {
    cn: "该账号注册于中文版，请在中文版登录",
    tw: "該賬號註冊於中文版，請在中文版登錄",
    en: "This account was registered in the Chinese version; please log in there",
  },
  "account.disabled": { cn: "账号已停用", tw: "賬號已停用", en: "This account is disabled" },

  // ledger
  "ledger.insufficientBalance": { cn: "余额不足", tw: "餘額不足", en: "Insufficient balance" },
  "ledger.idempotencyMismatch": {
    cn: "该请求编号已用于另一笔不同的操作",
    tw: "該請求編號已用於另一筆不同的操作",
    en: "This request key was already used for a different operation",
  },

  // session and generic
  "auth.loginExpired": { cn: "登录状态已过期", tw: "登錄狀態已過期", en: "Login state expired" },
  "auth.forbidden": { cn: "没有权限访问", tw: "沒有權限訪問", en: "You do not have permission for this" },
  "error.notFound": { cn: "资源不存在", tw: "資源不存在", en: "Not found" },
  "error.internal": {
    cn: "系统异常，请稍后再试",
    tw: "系統異常，請稍後再試",
    en: "System error, please try again later",
  },
  "error.interface": { cn: "接口异常", tw: "接口異常", en: "Interface exception" },
  "error.tooManyRequests": { cn: "请求过于频繁", tw: "請求過於頻繁", en: "Too many requests" },
  // Any xlsx import refused before it is parsed (platform/xlsx.ts: 50 MB unpacked, 100:1 at most).
  "import.fileTooLarge": {
    cn: "文件解压后超过50MB或压缩比异常，无法导入；请使用模板并分批导入",
    tw: "檔案解壓後超過50MB或壓縮比異常，無法匯入；請使用範本並分批匯入",
    en: "The file unpacks to more than 50 MB or is compressed abnormally, so it cannot be imported; please use the template and import in smaller batches",
  },
  ...ONBOARDING_MESSAGES,
  ...CATALOG_MESSAGES,
  ...FUNDS_MESSAGES,
  ...WITHDRAWAL_MESSAGES,
  ...PURCHASING_MESSAGES,
  ...MEDIA_MESSAGES,
  ...ORDER_CHAT_MESSAGES,
  ...ONECARD_MESSAGES,
  ...INVOICE_MESSAGES,
  ...COMMISSION_MESSAGES,
  ...REBATE_MESSAGES,
  ...DEVELOPER_MESSAGES,
  ...COMMERCE_MESSAGES,
  ...STORES_MESSAGES,
  ...COLLECTION_MESSAGES,
  ...MINIPROGRAM_MESSAGES,
  ...MALL_MESSAGES,
  ...PROVIDER_OPS_MESSAGES,
} as const satisfies Record<string, Record<Lang, string>>;

export type MessageKey = keyof typeof MESSAGES;

export function isMessageKey(value: string): value is MessageKey {
  return Object.prototype.hasOwnProperty.call(MESSAGES, value);
}

/** Renders a message in one language, filling `{{name}}` placeholders. */
export function renderMessage(key: MessageKey, lang: Lang, params: Record<string, string | number> = {}): string {
  return MESSAGES[key][lang].replace(/\{\{(\w+)\}\}/g, (_m, name: string) => String(params[name] ?? ""));
}
