import { CODE } from "@tessera/contracts";
import type { Config } from "../../../config";
import type { Db } from "../../../db/tx";
import { AppError } from "../../http/errors";
import type { SmsSender } from "../adapters";
import { createAliyunSms } from "../sms/aliyun";
import { familyOf, SMS_KINDS, SMS_PARAM_ORDER, templateContent } from "../sms/kinds";
import { createTencentSms } from "../sms/tencent";
import { startLocalSmsGateway, type LocalSmsGateway, type LocalTemplate } from "./gateway";
import { localSmsKeys } from "./keys";

/** The templates the configured codes stand for at the local gateway: each kind's text and variables. */
export function localTemplates(templates: Config["sms"]["templates"]): LocalTemplate[] {
  return SMS_KINDS.map((kind) => ({
    code: templates[kind],
    content: templateContent(kind),
    params: SMS_PARAM_ORDER[familyOf(kind)],
    verification: kind.startsWith("code."),
  }));
}

/**
 * SMS_ADAPTER=aliyun|tencent with its endpoint `local` (sandbox): the real adapter, signed with the keys
 * generated into DATA_DIR/sms-local, against the local SMS gateway, started on loopback with the first message.
 */
export function localSmsSender(config: Config, db: Db, log: (line: string) => void): SmsSender {
  const { sms } = config;
  const keys = localSmsKeys(config.dataDir);
  let started: Promise<{ gateway: LocalSmsGateway; send: SmsSender["send"] }> | undefined;
  const start = async () => {
    const gateway = await startLocalSmsGateway({
      db,
      keys,
      signNames: [sms.signName],
      templates: localTemplates(sms.templates),
      log,
    });
    log(`[sms] ${sms.adapter} adapter against the local SMS gateway at ${gateway.url} (sandbox)`);
    const vendor =
      sms.adapter === "tencent"
        ? createTencentSms(
            {
              ...sms.tencent,
              ...keys.tencent,
              endpoint: gateway.url,
              signName: sms.signName,
              templates: sms.templates,
            },
            log,
          )
        : createAliyunSms(
            { ...keys.aliyun, endpoint: gateway.url, signName: sms.signName, templates: sms.templates },
            log,
          );
    return { gateway, send: async (m: Parameters<SmsSender["send"]>[0]) => void (await vendor.send(m)) };
  };
  return {
    kind: sms.adapter === "tencent" ? "tencent" : "aliyun",
    send: async (m) => {
      started ??= start();
      let send: SmsSender["send"];
      try {
        ({ send } = await started);
      } catch (err) {
        // The gateway could not start (e.g. no loopback port): the next message tries again.
        started = undefined;
        log(`[sms] the local SMS gateway did not start: ${err instanceof Error ? err.message : String(err)}`);
        throw new AppError(CODE.SEND_FAILED, "sms.sendFailed");
      }
      await send(m);
    },
  };
}
