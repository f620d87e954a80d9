import { SMS_KINDS, templateEnvName, type SmsKind } from "./kinds";

/** `ALIYUN_SMS_ENDPOINT=local` / `TENCENT_SMS_ENDPOINT=local`: the real adapter against the local SMS gateway (sandbox). */
export const LOCAL_GATEWAY = "local";

export interface SmsConfig {
  /** SMS_ADAPTER: `local` keeps messages in the dev outbox; `aliyun` and `tencent` send through the vendors' SDKs. */
  adapter: "local" | "aliyun" | "tencent";
  /** The vendor adapter talks to the local SMS gateway (sandbox only): its endpoint setting is `local`. */
  localGateway: boolean;
  /** SMS_SIGN_NAME: the approved sign name (签名), e.g. Tessera. */
  signName: string;
  /** Each kind's approved template: SMS_TEMPLATE_<KIND>, SMS_TEMPLATE_CODE for every code kind not named. */
  templates: Record<SmsKind, string>;
  aliyun: { accessKeyId: string; accessKeySecret: string; endpoint: string };
  tencent: { secretId: string; secretKey: string; sdkAppId: string; region: string; endpoint: string };
}

/** The template codes the local gateway has "approved" when none are set: SMS_900001... (Alibaba Cloud) or 900001... (Tencent Cloud). */
export function localTemplateCode(adapter: "aliyun" | "tencent", kind: SmsKind): string {
  const n = String(900_001 + SMS_KINDS.indexOf(kind));
  return adapter === "aliyun" ? `SMS_${n}` : n;
}

/**
 * Reads the SMS settings. A vendor adapter against a real endpoint needs its keys, the sign name and a
 * template for every kind: anything missing stops the start with a message naming it.
 */
export function loadSmsConfig(env: NodeJS.ProcessEnv): SmsConfig {
  const v = (name: string) => (env[name] ?? "").trim();
  const adapter = v("SMS_ADAPTER") || "local";
  if (adapter !== "local" && adapter !== "aliyun" && adapter !== "tencent") {
    throw new Error(`SMS_ADAPTER must be one of local, aliyun, tencent; got "${adapter}"`);
  }
  const aliyunEndpoint = v("ALIYUN_SMS_ENDPOINT") || "dysmsapi.aliyuncs.com";
  const tencentEndpoint = v("TENCENT_SMS_ENDPOINT") || "sms.tencentcloudapi.com";
  const localGateway =
    (adapter === "aliyun" && aliyunEndpoint === LOCAL_GATEWAY) ||
    (adapter === "tencent" && tencentEndpoint === LOCAL_GATEWAY);
  const missing: string[] = [];
  const need = (name: string, fallback?: string) => {
    const value = v(name) || fallback;
    if (value === undefined) missing.push(name);
    return value ?? "";
  };
  const vendor = adapter === "local" ? undefined : adapter;
  const required = vendor !== undefined && !localGateway;
  const signName = required ? need("SMS_SIGN_NAME") : v("SMS_SIGN_NAME") || "Tessera";
  const templates = Object.fromEntries(
    SMS_KINDS.map((kind) => {
      const own = v(templateEnvName(kind)) || (kind.startsWith("code.") ? v("SMS_TEMPLATE_CODE") : "");
      if (own || !vendor) return [kind, own];
      if (localGateway) return [kind, localTemplateCode(vendor, kind)];
      missing.push(templateEnvName(kind) + (kind.startsWith("code.") ? " (or SMS_TEMPLATE_CODE)" : ""));
      return [kind, ""];
    }),
  ) as Record<SmsKind, string>;
  const aliyunKeys = adapter === "aliyun" && required;
  const tencentKeys = adapter === "tencent" && required;
  const config: SmsConfig = {
    adapter,
    localGateway,
    signName,
    templates,
    aliyun: {
      accessKeyId: aliyunKeys ? need("ALIYUN_SMS_ACCESS_KEY_ID") : v("ALIYUN_SMS_ACCESS_KEY_ID"),
      accessKeySecret: aliyunKeys ? need("ALIYUN_SMS_ACCESS_KEY_SECRET") : v("ALIYUN_SMS_ACCESS_KEY_SECRET"),
      endpoint: aliyunEndpoint,
    },
    tencent: {
      secretId: tencentKeys ? need("TENCENT_SMS_SECRET_ID") : v("TENCENT_SMS_SECRET_ID"),
      secretKey: tencentKeys ? need("TENCENT_SMS_SECRET_KEY") : v("TENCENT_SMS_SECRET_KEY"),
      sdkAppId: tencentKeys ? need("TENCENT_SMS_SDK_APP_ID") : v("TENCENT_SMS_SDK_APP_ID"),
      region: v("TENCENT_SMS_REGION") || "ap-guangzhou",
      endpoint: tencentEndpoint,
    },
  };
  if (missing.length > 0) throw new Error(`SMS_ADAPTER=${adapter} needs ${missing.join(", ")}`);
  return config;
}

/** Whether SMS goes to real phones: a vendor adapter against anything but the local gateway. */
export function realSms(config: SmsConfig): boolean {
  return config.adapter !== "local" && !config.localGateway;
}
