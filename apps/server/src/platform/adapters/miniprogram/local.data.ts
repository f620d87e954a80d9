import { randomBytes } from "node:crypto";
import type { MpPlatform } from "@tessera/contracts";
import { type Db } from "../../../db/tx";
import type { Clock } from "../../clock";
import { type AccountType, type AuditStatus, type Category } from "./adapter";
import type { SimVersion } from "./tables";

/** The local platform's constants (the real platforms' lifetimes, limits, categories) and small helpers. */

/** Lifetimes of the real platforms (wave2-anchors §2.1). */
export const ACCESS_TOKEN_SECONDS = 7200;
export const PREAUTH_SECONDS = 600;
export const AUTH_CODE_SECONDS = 3600;
/** Douyin keeps the previous access token valid 5 minutes after a refresh. */
export const PREVIOUS_TOKEN_SECONDS = 300;
/** wxa/undocodeaudit: 5 a day, 10 a month (87013). */
export const WITHDRAW_PER_DAY = 5;
export const WITHDRAW_PER_MONTH = 10;
/** History the platform keeps for revertcoderelease. */
export const HISTORY_MAX = 5;

export const CATEGORIES: Record<MpPlatform, Category[]> = {
  wechat: [
    { firstClass: "商家自营", secondClass: "百货", firstId: 304, secondId: 323 },
    { firstClass: "商家自营", secondClass: "虚拟卡券", firstId: 304, secondId: 1017 },
    { firstClass: "生活服务", secondClass: "综合生活服务平台", firstId: 150, secondId: 663 },
    { firstClass: "工具", secondClass: "信息查询", firstId: 287, secondId: 614 },
  ],
  douyin: [
    { firstClass: "电商", secondClass: "综合电商", firstId: 20, secondId: 2001 },
    { firstClass: "生活服务", secondClass: "本地生活", firstId: 30, secondId: 3003 },
    { firstClass: "工具", secondClass: "信息查询", firstId: 50, secondId: 5002 },
  ],
};

export const token = (prefix: string) => `${prefix}${randomBytes(24).toString("base64url")}`;
export const monthOf = (at: Date) => at.toISOString().slice(0, 7);
export const dayOf = (at: Date) => at.toISOString().slice(0, 10);

export interface LocalPlatformOptions {
  db: Db;
  clock: Clock;
  /** Audit submissions per month, shared by every merchant of the platform. */
  quotaLimit: number;
  /** The privacy scan after a commit: a submit before it ends gets 61039. */
  scanSeconds: number;
  /** getwxacodeunlimit calls per app per minute before 45009 (WeChat: 5000). */
  wxacodePerMinute?: number;
}

/** WeChat's scene characters: digits, letters and !#$&'()*+,/:;=?@-._~ */
export const SCENE = /^[0-9A-Za-z!#$&'()*+,/:;=?@\-._~]*$/;
export const PAGE = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;

export interface SimAudit {
  auditId: string;
  platform: MpPlatform;
  appId: string;
  appName: string;
  status: AuditStatus;
  version: SimVersion;
  itemList: { firstClass: string; secondClass: string }[];
  hostNames: string[];
  reason: string | null;
  screenshots: string[];
  submittedAt: Date;
  decidedAt: Date | null;
}

/** The template library of a local official account (the industry templates it added). */
export const OFFICIAL_TEMPLATES = [
  { id: "OPENTM_MALL_ORDER_DELIVERED", title: "订单发货通知" },
  { id: "OPENTM_MALL_REFUND", title: "退款通知" },
] as const;

export function scopesOf(platform: MpPlatform, accountType: AccountType = "miniprogram"): string[] {
  if (accountType === "official") return ["消息管理", "自定义菜单", "网页服务", "用户管理"];
  if (accountType === "life") return ["门店管理", "团购券核销", "商品管理"];
  return platform === "wechat"
    ? ["小程序开发管理", "小程序基本信息管理", "小程序类目管理"]
    : ["小程序代码管理", "小程序基础信息"];
}
