import { z } from "zod";
import { mobileField } from "./accounts";
import type { Lang } from "./lang";

/**
 * Agreements a merchant signs (spec 01 §2 screen 17, §5): the reserve-fund authorisation and the
 * e-signature service agreement. Each has a version; a signature stores the text as signed, its
 * SHA-256, who signed, when, from which address and with which phone (confirmed by SMS code).
 */
export const AGREEMENT_KINDS = ["reserveAuthorisation", "eSignature"] as const;
export type AgreementKind = (typeof AGREEMENT_KINDS)[number];

export interface AgreementTemplate {
  version: string;
  title: Record<Lang, string>;
  body: Record<Lang, string>;
}

export const AGREEMENT_TEMPLATES: Record<AgreementKind, AgreementTemplate> = {
  reserveAuthorisation: {
    version: "2026.1",
    title: { cn: "备付金账户授权书", tw: "備付金賬戶授權書", en: "Reserve fund account authorisation" },
    body: {
      cn: "一、本企业授权平台为本企业开立备付金（支付）账户，用于接收本企业的充值款项并支付采购货款。\n二、充值款项须由本企业实名认证的同名账户转入；非同名转账将被退回。\n三、平台按充值记录与资金变动明细记账，本企业可随时在后台查询。\n四、本授权自签署之日起生效，至本企业书面撤销或账户注销之日止。",
      tw: "一、本企業授權平台為本企業開立備付金（支付）賬戶，用於接收本企業的充值款項並支付採購貨款。\n二、充值款項須由本企業實名認證的同名賬戶轉入；非同名轉賬將被退回。\n三、平台按充值記錄與資金變動明細記賬，本企業可隨時在後台查詢。\n四、本授權自簽署之日起生效，至本企業書面撤銷或賬戶註銷之日止。",
      en: "1. We authorise the platform to open a reserve (payment) account for our company, to receive our top-ups and pay for our purchases.\n2. Top-ups must come from an account in the name of our verified company; transfers from other names are returned.\n3. The platform keeps the account by top-up records and fund changes, which we can consult at any time in the back-office.\n4. This authorisation takes effect when signed and lasts until we revoke it in writing or close the account.",
    },
  },
  eSignature: {
    version: "2026.1",
    title: { cn: "电子签章服务协议", tw: "電子簽章服務協議", en: "Electronic signature service agreement" },
    body: {
      cn: "一、本企业同意以电子签章方式签署平台上的对接协议、采购协议及相关文件，电子签章与手写签名或盖章具有同等法律效力。\n二、每次签署均以本企业预留手机号接收的短信验证码确认，平台记录签署人、时间、IP地址及文件摘要。\n三、本企业应妥善保管登录账号与手机，因保管不善造成的签署由本企业承担责任。\n四、已签署文件可在后台随时查看，平台不得篡改。",
      tw: "一、本企業同意以電子簽章方式簽署平台上的對接協議、採購協議及相關文件，電子簽章與手寫簽名或蓋章具有同等法律效力。\n二、每次簽署均以本企業預留手機號接收的短信驗證碼確認，平台記錄簽署人、時間、IP地址及文件摘要。\n三、本企業應妥善保管登錄賬號與手機，因保管不善造成的簽署由本企業承擔責任。\n四、已簽署文件可在後台隨時查看，平台不得篡改。",
      en: "1. We agree to sign docking agreements, purchase agreements and related documents on the platform by electronic signature, which has the same legal effect as a handwritten signature or seal.\n2. Each signature is confirmed by an SMS code sent to the phone we give; the platform records the signer, time, IP address and a digest of the document.\n3. We keep our login and phone safe and answer for signatures made through them.\n4. Signed documents can be viewed in the back-office at any time and are never altered by the platform.",
    },
  },
};

export const agreementTemplateReply = z.object({
  kind: z.enum(AGREEMENT_KINDS),
  version: z.string(),
  title: z.string(),
  body: z.string(),
  /** This merchant's signature of the current version, if any. */
  signed: z.object({ id: z.string(), signedAt: z.string() }).nullable(),
});
export type AgreementTemplateReply = z.infer<typeof agreementTemplateReply>;

const smsCodeField = z
  .string({ error: "validation.smsCodeEmpty" })
  .trim()
  .min(1, { error: "validation.smsCodeEmpty" })
  .max(12, { error: "code.invalid" });

export const signAgreementReq = z.strictObject({
  kind: z.enum(AGREEMENT_KINDS),
  /** The version the signer read; refused when the agreement changed meanwhile. */
  version: z.string().min(1).max(20),
  consent: z.literal(true, { error: "agreement.consentRequired" }),
  phone: mobileField,
  smsCode: smsCodeField,
});
export type SignAgreementReq = z.infer<typeof signAgreementReq>;

export const signedAgreement = z.object({
  id: z.string(),
  kind: z.enum(AGREEMENT_KINDS),
  version: z.string(),
  lang: z.string(),
  title: z.string(),
  body: z.string(),
  bodySha256: z.string(),
  signerEmail: z.string(),
  /** Masked: 138****8000. */
  phone: z.string(),
  ip: z.string().nullable(),
  signedAt: z.string(),
});
export type SignedAgreement = z.infer<typeof signedAgreement>;
