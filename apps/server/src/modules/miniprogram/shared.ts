import { CODE, isMessageKey, type MpPlatform } from "@tessera/contracts";
import type { Db } from "../../db/tx";
import type { Clock } from "../../platform/clock";
import { AppError } from "../../platform/http/errors";
import type { FileStorage } from "../../platform/storage";
import type { PlatformAdapter, PlatformError } from "../../platform/adapters/miniprogram";
import { iso } from "../../platform/present";

/** What the miniprogram feature services share: their dependencies, the mall's view, errors and dates. */

/** What the customer mall renders (the contract the mall module consumes). */
export interface MallAppearance {
  configId: number;
  merchantId: number;
  platform: "wechat" | "douyin";
  appId: string;
  name: string;
  template: string;
  theme: 1 | 2 | 3 | 4;
  navMenus: { title: string; target: string }[];
  bottomMenus: { title: string; target: string }[];
  customerService: string | null;
  smsSignature: string | null;
  validityDays: number | null;
  payOnPlatform: boolean;
  allowTopupAccountChange: boolean;
}

export interface MiniprogramDeps {
  db: Db;
  clock: Clock;
  adapters: Record<MpPlatform, PlatformAdapter>;
  storage: FileStorage;
}

/** Refresh the authorizer token this long before it expires. */

/** Refresh the authorizer token this long before it expires. */
export const REFRESH_MARGIN_MS = 5 * 60_000;

export const notFound = () => new AppError(CODE.NOT_FOUND, "mp.configNotFound");
export { iso };

/** A platform's refusal as a readable message (its code kept in the text). */
export function platformRefusal(err: PlatformError): AppError {
  const key = `mp.err.${err.errcode}`;
  if (isMessageKey(key)) return new AppError(CODE.CONFLICT, key, { errcode: err.errcode });
  return new AppError(CODE.CONFLICT, "mp.err.unknown", { errcode: err.errcode });
}
