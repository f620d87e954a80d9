import { renderMessage, type CodeScene, type MessageKey } from "@tessera/contracts";

/**
 * What the product sends by SMS (issue 41): each kind is one template at the vendor, with its sign name
 * and its variables. A verification code has a kind per scene, because a vendor's code template names
 * what the code is for in its fixed text.
 */
export const SMS_CODE_SCENES = [
  "bindPhone",
  "signAgreement",
  "transitAuth",
  "viewApiSecret",
  "customerLogin",
  "cardPassword",
] as const satisfies readonly CodeScene[];
export type SmsCodeScene = (typeof SMS_CODE_SCENES)[number];

export const SMS_KINDS = [...SMS_CODE_SCENES.map((s) => `code.${s}` as const), "giftNotice", "cardLocked"] as const;
export type SmsKind = `code.${SmsCodeScene}` | "giftNotice" | "cardLocked";

/** Each kind's template variables, in the order a positional template (Tencent Cloud's {1}, {2}) takes them. */
export interface SmsParamsOf {
  code: { code: string; minutes: number };
  /** `link`: the gift's claim page (issue 40, item 3); the approved template carries it as its third variable. */
  giftNotice: { from: string; count: number; link: string };
  cardLocked: { last4: string; minutes: number };
}
type Family<K extends SmsKind> = K extends `code.${string}` ? "code" : K;
export type SmsParams<K extends SmsKind = SmsKind> = SmsParamsOf[Family<K>];

export const SMS_PARAM_ORDER: { [F in keyof SmsParamsOf]: readonly (keyof SmsParamsOf[F] & string)[] } = {
  code: ["code", "minutes"],
  giftNotice: ["from", "count", "link"],
  cardLocked: ["last4", "minutes"],
};

/**
 * One SMS: who, which kind with its template variables, and `text`, the message rendered in the
 * recipient's language by our own texts (what the local adapter keeps in the dev outbox, and what logs and
 * tests read). A vendor sends its approved template with `params` instead.
 */
export type SmsMessage = { [K in SmsKind]: { to: string; kind: K; params: SmsParams<K>; text: string } }[SmsKind];

export function isSmsCodeScene(scene: CodeScene): scene is SmsCodeScene {
  return (SMS_CODE_SCENES as readonly string[]).includes(scene);
}

export function familyOf(kind: SmsKind): keyof SmsParamsOf {
  return kind.startsWith("code.") ? "code" : (kind as "giftNotice" | "cardLocked");
}

/** A kind's template variables in the template's order, as the strings a vendor takes. */
export function orderedParams(message: SmsMessage): string[] {
  const params = message.params as unknown as Record<string, string | number>;
  return SMS_PARAM_ORDER[familyOf(message.kind)].map((name) => String(params[name]));
}

/** The environment variable that names a kind's template: SMS_TEMPLATE_CODE_CUSTOMER_LOGIN, SMS_TEMPLATE_GIFT_NOTICE. */
export function templateEnvName(kind: SmsKind): string {
  return `SMS_TEMPLATE_${kind
    .replace(".", "_")
    .replace(/([a-z])([A-Z])/g, "$1_$2")
    .toUpperCase()}`;
}

/**
 * The text a kind's template would carry at the vendor (zh-CN, sign name left out, `${name}` for each
 * variable): what an operator applies for, and what the local SMS gateway renders.
 */
export function templateContent(kind: SmsKind): string {
  const family = familyOf(kind);
  const vars = Object.fromEntries(SMS_PARAM_ORDER[family].map((name) => [name, `\${${name}}`]));
  const key: MessageKey =
    family === "code" ? "code.smsBody" : family === "giftNotice" ? "onecard.giftSms" : "onecard.lockedSms";
  const purpose = family === "code" ? renderMessage(`code.purpose.${kind.slice(5) as SmsCodeScene}`, "cn") : "";
  return renderMessage(key, "cn", { ...vars, purpose }).replace(/^【[^】]*】/, "");
}
