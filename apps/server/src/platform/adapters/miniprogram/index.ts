import type { MpPlatform } from "@tessera/contracts";
import type { Config } from "../../../config";
import type { Db } from "../../../db/tx";
import type { Clock } from "../../clock";
import type { PlatformAdapter } from "./adapter";
import { LocalPlatform } from "./local";
import { DouyinHttpAdapter, WechatHttpAdapter } from "./real";

export * from "./adapter";
export * from "./local";
export { DouyinHttpAdapter, WechatHttpAdapter } from "./real";

/**
 * The mini-program platforms the modules talk to, built in the context beside mail and SMS: the local
 * platform (a sandbox: its consent pages, audits and releases happen here, in its own tables) or the
 * platforms' HTTP APIs (MP_ADAPTER=http, with their credentials). `sims` is the local platform itself, for
 * its pages and console; null on the real ones.
 */
export interface MiniprogramPlatforms {
  adapters: Record<MpPlatform, PlatformAdapter>;
  sims: Record<MpPlatform, LocalPlatform> | null;
}

export function createMiniprogramPlatforms(config: Config, db: Db, clock: Clock): MiniprogramPlatforms {
  const cfg = config.miniprogram;
  if (cfg.adapter === "local") {
    const options = { db, clock, quotaLimit: cfg.auditQuota, scanSeconds: cfg.scanSeconds };
    const sims = { wechat: new LocalPlatform("wechat", options), douyin: new LocalPlatform("douyin", options) };
    return { adapters: sims, sims };
  }
  if (!cfg.wechat || !cfg.douyin) throw new Error("MP_ADAPTER=http needs the platforms' credentials");
  return {
    adapters: {
      wechat: new WechatHttpAdapter({ ...cfg.wechat }),
      douyin: new DouyinHttpAdapter({ ...cfg.douyin, life: cfg.douyinLife }),
    },
    sims: null,
  };
}
