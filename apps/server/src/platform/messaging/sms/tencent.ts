import * as tencentSms from "tencentcloud-sdk-nodejs-sms";
import { orderedParams, type SmsKind, type SmsMessage } from "./kinds";
import { maskPhone, smsFailure, thrownCode, thrownMessage } from "./errors";

export interface TencentSmsOptions {
  secretId: string;
  secretKey: string;
  sdkAppId: string;
  region: string;
  /** host[:port], e.g. sms.tencentcloudapi.com; `http://host:port` talks plain HTTP (the local gateway). */
  endpoint: string;
  signName: string;
  templates: Record<SmsKind, string>;
}

const SmsClient = tencentSms.sms.v20210111.Client;

/**
 * Tencent Cloud SMS through its SDK (tencentcloud-sdk-nodejs-sms, SendSms 2021-01-11, signed with
 * TC3-HMAC-SHA256). Template variables go positionally ({1}, {2}: SMS_PARAM_ORDER). A send the vendor does not
 * take (an error, a SendStatus whose Code is not Ok, the network) is logged and thrown as the user's AppError.
 */
export function createTencentSms(options: TencentSmsOptions, log: (line: string) => void) {
  const plain = options.endpoint.startsWith("http://");
  const client = new SmsClient({
    credential: { secretId: options.secretId, secretKey: options.secretKey },
    region: options.region,
    profile: {
      httpProfile: {
        endpoint: options.endpoint.replace(/^https?:\/\//, "").replace(/\/+$/, ""),
        protocol: plain ? "http://" : "https://",
        reqTimeout: 10,
      },
    },
  });
  return {
    kind: "tencent" as const,
    async send(m: SmsMessage): Promise<{ serialNo: string }> {
      let code: string;
      let detail: string;
      try {
        const reply = await client.SendSms({
          PhoneNumberSet: [`+86${m.to}`],
          SmsSdkAppId: options.sdkAppId,
          SignName: options.signName,
          TemplateId: options.templates[m.kind],
          TemplateParamSet: orderedParams(m),
        });
        const status = reply.SendStatusSet?.[0];
        if (status?.Code === "Ok") {
          log(`[sms:tencent] to=${maskPhone(m.to)} kind=${m.kind} serialNo=${status.SerialNo ?? ""}`);
          return { serialNo: status.SerialNo ?? "" };
        }
        code = status?.Code ?? "unknown";
        detail = status?.Message ?? "";
      } catch (err) {
        code = thrownCode(err);
        detail = thrownMessage(err);
      }
      log(`[sms:tencent] to=${maskPhone(m.to)} kind=${m.kind} not sent: ${code} ${detail}`);
      throw smsFailure(code);
    },
  };
}
