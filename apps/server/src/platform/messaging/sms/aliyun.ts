import * as dysms from "@alicloud/dysmsapi20170525";
import { $OpenApiUtil } from "@alicloud/openapi-core";
import type { SmsKind, SmsMessage } from "./kinds";
import { maskPhone, smsFailure, thrownCode, thrownMessage } from "./errors";

export interface AliyunSmsOptions {
  accessKeyId: string;
  accessKeySecret: string;
  /** host[:port], e.g. dysmsapi.aliyuncs.com; `http://host:port` talks plain HTTP (the local gateway). */
  endpoint: string;
  signName: string;
  templates: Record<SmsKind, string>;
}

// The SDK is CommonJS with `exports.default`: plain Node ESM gives the exports object, bundlers the class.
const moduleDefault = dysms.default as unknown as { default?: typeof dysms.default };
const Dysmsapi = moduleDefault.default ?? dysms.default;

/**
 * Alibaba Cloud SMS through its SDK (@alicloud/dysmsapi20170525, SendSms; the SDK signs with
 * ACS3-HMAC-SHA256). A send the vendor does not take (its Code is not OK, its per-phone limits, the network)
 * is logged and thrown as the user's AppError: sms.tooFrequent or sms.sendFailed.
 */
export function createAliyunSms(options: AliyunSmsOptions, log: (line: string) => void) {
  const plain = options.endpoint.startsWith("http://");
  const client = new Dysmsapi(
    new $OpenApiUtil.Config({
      accessKeyId: options.accessKeyId,
      accessKeySecret: options.accessKeySecret,
      endpoint: options.endpoint.replace(/^https?:\/\//, "").replace(/\/+$/, ""),
      protocol: plain ? "http" : "https",
      connectTimeout: 5_000,
      readTimeout: 10_000,
    }),
  );
  return {
    kind: "aliyun" as const,
    async send(m: SmsMessage): Promise<{ bizId: string }> {
      const request = new dysms.SendSmsRequest({
        phoneNumbers: m.to,
        signName: options.signName,
        templateCode: options.templates[m.kind],
        templateParam: JSON.stringify(m.params),
      });
      let code: string;
      let detail: string;
      try {
        const reply = await client.sendSms(request);
        const body = reply.body;
        if (body?.code === "OK") {
          log(`[sms:aliyun] to=${maskPhone(m.to)} kind=${m.kind} bizId=${body.bizId ?? ""}`);
          return { bizId: body.bizId ?? "" };
        }
        code = body?.code ?? "unknown";
        detail = body?.message ?? "";
      } catch (err) {
        code = thrownCode(err);
        detail = thrownMessage(err);
      }
      log(`[sms:aliyun] to=${maskPhone(m.to)} kind=${m.kind} not sent: ${code} ${detail}`);
      throw smsFailure(code);
    },
  };
}
