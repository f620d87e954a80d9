import type { MpPlatform } from "@tessera/contracts";

/**
 * The social platform as the third-party platform (us) sees it: WeChat open platform (third-party
 * platform, `api.weixin.qq.com`) or Douyin (third-party app, `open.microapp.bytedance.com`). One adapter
 * per platform; configuration picks the local simulator (default) or the real HTTP one. Operation names
 * follow the platforms' own (research/wave2-anchors.md §2.1).
 */

/** An error the platform answered with: its `errcode` / `err_no` and message. */
export class PlatformError extends Error {
  constructor(
    readonly errcode: number,
    readonly errmsg: string,
  ) {
    super(`${errcode} ${errmsg}`);
    this.name = "PlatformError";
  }
}

/** Error codes the flow knows (WeChat unless noted). */
export const ERR = {
  INVALID_TOKEN: 40001,
  TOKEN_EXPIRED: 42001,
  NOT_AUTHORIZED: 61003,
  AUTH_CODE_EXPIRED: 61010,
  PRIVACY_SCAN: 61039,
  AUDIT_IN_PROGRESS: 85009,
  BAD_AUDIT_ID: 85012,
  BAD_EXT_JSON: 85013,
  NO_TEMPLATE: 85014,
  NO_AUDIT: 85019,
  NOT_APPROVED: 85020,
  QUOTA: 85085,
  NOT_COMMITTED: 85086,
  NO_ROLLBACK: 87012,
  /** The account has no right to this API (e.g. a menu on a mini-program). */
  API_UNAUTHORIZED: 48001,
  /** message/template/send: the template is not one of the account's. */
  BAD_TEMPLATE_ID: 40037,
  /** message/template/send: openid not a follower of this account. */
  BAD_OPENID: 40003,
  WITHDRAW_LIMIT: 87013,
  /** wxa/getwxacodeunlimit: the page is not one of the released version's (check_path) or malformed. */
  INVALID_PAGE: 41030,
  /** wxa/getwxacodeunlimit: calls per minute over the limit. */
  CALL_LIMIT: 45009,
  /** wxa/getwxacodeunlimit: the scene is longer than 32 characters. */
  INVALID_SCENE_LENGTH: 40169,
  /** Douyin: package/release of a version that did not pass. */
  DY_NOT_APPROVED: 11404,
  /** Douyin: package/rollback more than once per release. */
  DY_ROLLBACK_AGAIN: 11501,
} as const;

/**
 * What a consent authorises: a mini-program (WeChat auth_type 2), an official account (公众号, auth_type 1),
 * a Douyin local-life (本地生活) merchant account.
 */
export type AccountType = "miniprogram" | "official" | "life";

export interface AuthorizerTokens {
  appId: string;
  /** What the authorised account is, when the platform tells (the local one does). */
  accountType?: AccountType;
  /** Its name on the platform, when told. */
  nickName?: string;
  accessToken: string;
  /** Seconds. */
  expiresIn: number;
  refreshToken: string;
  scopes: string[];
}

export interface CommitInput {
  templateId: number;
  /** A JSON string (ext_json). */
  extJson: string;
  userVersion: string;
  userDesc: string;
}

/** wxa/getwxacodeunlimit's body. */
export interface UnlimitedQrcodeInput {
  scene: string;
  /** A page of the app without a leading slash; the home page when empty. */
  page: string;
  width: number;
  /** Whether the page must exist in the version of envVersion (WeChat's default true). */
  checkPath: boolean;
  envVersion: "release" | "trial" | "develop";
}

export interface SubmitInput {
  itemList: { firstClass: string; secondClass: string }[];
  hostNames: string[];
  versionDesc: string;
  feedbackInfo: string;
}

/** Audit status codes of wxa/get_auditstatus: 0 approved, 1 rejected, 2 auditing, 3 withdrawn, 4 delayed. */
export type AuditStatus = 0 | 1 | 2 | 3 | 4;

export interface AuditState {
  auditId: string;
  status: AuditStatus;
  reason: string | null;
  screenshots: string[];
}

export interface Category {
  firstClass: string;
  secondClass: string;
  firstId: number;
  secondId: number;
}

/** Asynchronous pushes of the platform (authorisation events, audit results). */
export type PlatformPush =
  | { event: "authorized" | "updateauthorized" | "unauthorized"; appId: string }
  | {
      event: "weapp_audit_success" | "weapp_audit_fail" | "weapp_audit_delay";
      appId: string;
      auditId: string;
      reason: string | null;
      screenshots: string[];
    };

export interface PlatformAdapter {
  readonly platform: MpPlatform;
  readonly kind: "local" | "http";
  /**
   * `api_create_preauthcode` and the consent page (`componentloginpage` / `gen_link`) that returns to redirectUri with auth_code.
   * `merchantId` is who asks: the local platform keeps each app to the merchant that first authorised it (a real
   * platform knows the app's owner from the administrator who scans the consent and ignores it).
   */
  authUrl(
    redirectUri: string,
    origin: string,
    accountType?: AccountType,
    merchantId?: number,
  ): Promise<{ url: string; expiresIn: number }>;
  /**
   * `api_query_auth`: the authorisation code for the authorizer's tokens. `accountType` says which consent
   * the code came from (a Douyin local-life account authorises on open.douyin.com, not the mini-program one).
   */
  queryAuth(authCode: string, accountType?: AccountType): Promise<AuthorizerTokens>;
  /** `api_authorizer_token`: a new access token from the refresh token. */
  refreshToken(appId: string, refreshToken: string, accountType?: AccountType): Promise<AuthorizerTokens>;
  /** `wxa/commit` / `package/upload`: a new trial (experience) version. */
  commit(accessToken: string, input: CommitInput): Promise<void>;
  /** `wxa/get_qrcode` / `app/qrcode`: the trial version's QR image opening `path`. */
  trialQrcode(accessToken: string, previewUrl: string): Promise<{ contentType: string; data: Buffer }>;
  /**
   * `wxa/getwxacodeunlimit` (WeChat only): a mini-program code opening `page` with `scene` (≤ 32 visible
   * characters), `width` 280–1280 px. 41030 when the page is not in the released version (checkPath),
   * 45009 over the per-minute limit.
   */
  unlimitedQrcode?(accessToken: string, input: UnlimitedQrcodeInput): Promise<{ contentType: string; data: Buffer }>;
  /** `wxa/get_category`: categories the app may be submitted under. */
  categories(accessToken: string): Promise<Category[]>;
  /** `wxa/submit_audit` / `package/audit`. */
  submitAudit(accessToken: string, input: SubmitInput): Promise<{ auditId: string }>;
  /** `wxa/get_auditstatus`. */
  auditStatus(accessToken: string, auditId: string): Promise<AuditState>;
  /** `wxa/undocodeaudit`. */
  undoAudit(accessToken: string): Promise<void>;
  /** `wxa/release` (body `{}`) / `package/release`. */
  release(accessToken: string): Promise<void>;
  /** `wxa/revertcoderelease` / `package/rollback`. */
  rollback(accessToken: string): Promise<void>;
  /** `wxa/queryquota`: audit quota shared by every merchant of the platform. */
  quota(): Promise<{ rest: number; limit: number }>;
  /** Withdrawals of review left today and this month, where the platform tells (the local one does). */
  withdrawRest?(appId: string): Promise<{ today: number; month: number }>;
  /** An official account's calls (WeChat only). */
  official?: OfficialAccountApi;
  /** Where the platform's pushes go (the local simulator calls it; real pushes arrive over HTTP). */
  onPush(listener: (push: PlatformPush) => Promise<void>): void;
}

/** One button of an official account's menu: a link (type view). */
export interface MenuButton {
  name: string;
  url: string;
}

/** What an official account's binding enables (WeChat `cgi-bin/menu/create`, `cgi-bin/message/template/send`). */
export interface OfficialAccountApi {
  /** `cgi-bin/menu/create`: replaces the account's custom menu (at most 3 buttons). */
  createMenu(accessToken: string, buttons: MenuButton[]): Promise<void>;
  /** `cgi-bin/message/template/send` to a follower. */
  sendTemplate(
    accessToken: string,
    msg: { toUser: string; templateId: string; url: string; data: Record<string, string> },
  ): Promise<{ msgId: string }>;
}
