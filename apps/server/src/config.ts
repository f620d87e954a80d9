import { isIP } from "node:net";
import path from "node:path";
import ipaddr from "ipaddr.js";
import { DEFAULT_PGLITE_SHARED_BUFFERS } from "./db/database";
import { loadSmsConfig, realSms, type SmsConfig } from "./platform/messaging/sms/config";

/**
 * Every environment variable the server reads, parsed in one place. The README's configuration table
 * mirrors this list.
 */
export interface Config {
  /** HTTP port for the web app, the API and the IM service. */
  port: number;
  host: string;
  /** The web app's public address (PUBLIC_URL), for links sent by SMS (a gift's claim link); no trailing slash. */
  webUrl: string;
  /** Folder for the embedded database, the secret key file and uploads. */
  dataDir: string;
  /** A PostgreSQL server; when empty the embedded PGlite database in `dataDir` is used. */
  databaseUrl: string | undefined;
  /** The embedded database's buffer cache (PostgreSQL's shared_buffers), e.g. "32MB". */
  pgliteSharedBuffers: string;
  /** The built web app to serve; absent folder means API only. */
  webDist: string;
  logLevel: string;
  /** 32-byte key (hex or base64) for keyed hashes and encryption; default: a key file in dataDir. */
  secretKey: string | undefined;
  opsEmail: string;
  opsPassword: string | undefined;
  tokenTtlSeconds: number;
  /** The IANA zone every time is shown in (pages, exports, PDFs): TZ_DISPLAY, Asia/Shanghai unless set. */
  displayZone: string;
  mailAdapter: "local" | "smtp";
  smtpUrl: string | undefined;
  mailFrom: string;
  /** SMS: the local outbox, or Alibaba Cloud / Tencent Cloud through their SDKs (issue 41). */
  sms: SmsConfig;
  /**
   * `sandbox` (the default of `npm start`: local adapters, test money) or `live` (real users). TESSERA_MODE
   * sets it; a real mail or SMS adapter implies live (an SMS adapter against the local gateway does not).
   */
  mode: "sandbox" | "live";
  /**
   * Customer payments: `local` collects nothing (test money, sandbox only); `none` takes no customer payments;
   * `wechatpay` is WeChat Pay API v3 and `alipay` Alipay (issue 41), each against the vendor or its local
   * platform. A real merchant offers both: PAYMENT_ADAPTER=wechatpay,alipay; this is the first one named
   * (the default of a payment that names no provider), `paymentProviders` all of them.
   */
  paymentAdapter: "local" | "none" | PaymentProviderName;
  /** The real providers PAYMENT_ADAPTER names, in its order (empty for local and none). */
  paymentProviders: PaymentProviderName[];
  /** WeChat Pay's settings when PAYMENT_ADAPTER names wechatpay. */
  wechatpay: WechatpayConfig | undefined;
  /** Alipay's settings when PAYMENT_ADAPTER names alipay. */
  alipay: AlipayConfig | undefined;
  /** Whether PAYMENT_ADAPTER was set (a live deployment must say which adapter it means). */
  paymentAdapterExplicit: boolean;
  /** Automatic payouts above this many minor units wait for an operator (PAYOUT_REVIEW_ABOVE, yuan). */
  payoutReviewAbove: number;
  /** Automatic payouts of merchants younger than this many days wait for an operator. */
  payoutReviewDays: number;
  argon2MemoryKib: number;
  argon2Iterations: number;
  im: ImConfig;
  funds: FundsConfig;
  /** The platform as the seller on its invoices: taxpayer id and registered address (name and bank: the domestic top-up account). */
  invoiceSellerTaxId: string;
  invoiceSellerAddress: string;
  /** Withdrawals a merchant may request per platform day (spec 01 §5). */
  withdrawalsPerDay: number;
  /** Run the daily T+1 supplier payout in this process. */
  autoPayout: boolean;
  /** A closed commission statement is held for refunds this many days after its month's last day before it can be confirmed (paid). */
  commissionHoldDays: number;
  /** Deliver open-API callbacks to loopback and private addresses too (local testing only). */
  callbackAllowPrivateNetworks: boolean;
  /**
   * Which peers may tell the client's address in X-Forwarded-For (TRUST_PROXY, Fastify's trustProxy):
   * none by default, so a client cannot choose its own req.ip (allowlists, per-address limits, audit).
   */
  trustProxy: TrustProxy;
  /** DEV_ROUTES=true: /api/dev/* (the local adapters' outbox, journey scaffolding) is mounted. Never in production. */
  devRoutes: boolean;
  /** Where uploaded files live: DATA_DIR/files, or an S3-compatible object store. */
  storage: StorageConfig;
  /** Operations: who may read /metrics, and how a stopping node drains. */
  ops: OpsConfig;
  /** Physical goods e-commerce: courier, tracking pushes, automatic confirmation (module commerce). */
  commerce: CommerceConfig;
  /** Mini-program platforms, WeChat third-party platform and Douyin (module miniprogram). */
  miniprogram: MiniprogramConfig;
}

export interface WechatpayConfig {
  mchid: string;
  appid: string;
  /** The merchant API certificate's serial number (the Authorization header's serial_no). */
  serial: string;
  privateKeyFile: string;
  /** The APIv3 key (32 bytes) notifications' resources are encrypted with ("" for the local platform's, read at start). */
  apiv3Key: string;
  platformPublicKeyFile: string;
  /** The platform public key's id (PUB_KEY_ID_…), the Wechatpay-Serial of what the platform signs. */
  platformPublicKeyId: string;
  notifyUrl: string;
  baseUrl: string;
  /**
   * Sandbox without credentials: the local WeChat Pay platform of this server, its keys (merchant pair,
   * platform pair, APIv3 key) generated into DATA_DIR/wechatpay-local on first start.
   */
  local: boolean;
}

export type PaymentProviderName = "wechatpay" | "alipay";

export interface AlipayConfig {
  appId: string;
  /** The application's private key (RSA2, PKCS#8 or PKCS#1 PEM) requests are signed with. */
  privateKeyFile: string;
  /** Alipay's public key (PEM) its answers and notifications are verified with. */
  alipayPublicKeyFile: string;
  /** The gateway (alipay-sdk's `gateway`): the vendor's, its sandbox, or the local platform's. */
  gateway: string;
  notifyUrl: string;
  /** Sandbox without credentials: the local Alipay platform of this server, keys in DATA_DIR/alipay-local. */
  local: boolean;
}

export const ALIPAY_VENDOR_GATEWAY = "https://openapi.alipay.com/gateway.do";
/** Where the local Alipay platform (sandbox only) is served. */
export const ALIPAY_LOCAL_PATH = "/sandbox/alipay/";

/**
 * PAYMENT_ADAPTER=alipay's settings (issue 41), as WeChat Pay's: every one needed (a missing one stops the
 * start and names it) but ALIPAY_GATEWAY (the vendor's unless set), except in sandbox when none is set:
 * then the adapter talks to the local Alipay platform of this server, keys generated into DATA_DIR.
 */
function alipayConfig(env: NodeJS.ProcessEnv, mode: Config["mode"], dataDir: string, port: number): AlipayConfig {
  const names = ["ALIPAY_APP_ID", "ALIPAY_PRIVATE_KEY_FILE", "ALIPAY_PUBLIC_KEY_FILE", "ALIPAY_NOTIFY_URL"] as const;
  const missing = names.filter((n) => !env[n]);
  if (missing.length === names.length && mode === "sandbox") {
    const dir = path.join(dataDir, "alipay-local");
    const origin = `http://127.0.0.1:${port}`;
    return {
      appId: "9021000100000001",
      privateKeyFile: path.join(dir, "app_private_key.pem"),
      alipayPublicKeyFile: path.join(dir, "alipay_public_key.pem"),
      gateway: env.ALIPAY_GATEWAY || `${origin}${ALIPAY_LOCAL_PATH}gateway.do`,
      notifyUrl: env.ALIPAY_NOTIFY_URL || `${origin}/api/payments/alipay/notify`,
      local: true,
    };
  }
  if (missing.length > 0) throw new Error(`PAYMENT_ADAPTER=alipay needs ${missing.join(", ")}`);
  const gateway = env.ALIPAY_GATEWAY || ALIPAY_VENDOR_GATEWAY;
  if (!/^https?:\/\/[^/]+/.test(gateway)) throw new Error("ALIPAY_GATEWAY must be an http(s) URL");
  return {
    appId: env.ALIPAY_APP_ID ?? "",
    privateKeyFile: path.resolve(env.ALIPAY_PRIVATE_KEY_FILE ?? ""),
    alipayPublicKeyFile: path.resolve(env.ALIPAY_PUBLIC_KEY_FILE ?? ""),
    gateway,
    notifyUrl: env.ALIPAY_NOTIFY_URL ?? "",
    local: false,
  };
}

/**
 * PAYMENT_ADAPTER: `local`, `none`, or a comma list of real providers (`wechatpay,alipay`), each named once.
 */
function paymentAdapterOf(env: NodeJS.ProcessEnv): {
  paymentAdapter: Config["paymentAdapter"];
  paymentProviders: PaymentProviderName[];
} {
  const raw = (env.PAYMENT_ADAPTER ?? "").trim();
  if (raw === "" || raw === "local" || raw === "none") {
    return { paymentAdapter: raw === "" ? "local" : raw, paymentProviders: [] };
  }
  const names = raw.split(",").map((n) => n.trim());
  const providers: PaymentProviderName[] = [];
  for (const n of names) {
    if (n !== "wechatpay" && n !== "alipay") {
      throw new Error(
        "PAYMENT_ADAPTER must be one of local, none, wechatpay, alipay, or a comma list of them (wechatpay,alipay)",
      );
    }
    if (providers.includes(n)) throw new Error(`PAYMENT_ADAPTER names ${n} twice`);
    providers.push(n);
  }
  return { paymentAdapter: providers[0] ?? "local", paymentProviders: providers };
}

export const WECHATPAY_VENDOR_URL = "https://api.mch.weixin.qq.com/";
/** Where the local WeChat Pay platform (sandbox only) is served. */
export const WECHATPAY_LOCAL_PATH = "/sandbox/wechatpay/";

/**
 * PAYMENT_ADAPTER=wechatpay's settings (issue 41). Every one is needed (a missing one stops the start and
 * names it), except in sandbox when none is set: then the adapter talks to the local platform of this
 * server with keys generated into DATA_DIR (npm start runs the real adapter, test money).
 */
function wechatpayConfig(env: NodeJS.ProcessEnv, mode: Config["mode"], dataDir: string, port: number): WechatpayConfig {
  const names = [
    "WECHATPAY_MCHID",
    "WECHATPAY_APPID",
    "WECHATPAY_SERIAL",
    "WECHATPAY_PRIVATE_KEY_FILE",
    "WECHATPAY_APIV3_KEY",
    "WECHATPAY_PLATFORM_PUBLIC_KEY_FILE",
    "WECHATPAY_PLATFORM_PUBLIC_KEY_ID",
    "WECHATPAY_NOTIFY_URL",
  ] as const;
  const missing = names.filter((n) => !env[n]);
  if (missing.length === names.length && mode === "sandbox") {
    const dir = path.join(dataDir, "wechatpay-local");
    const origin = `http://127.0.0.1:${port}`;
    return {
      mchid: "1900000109",
      appid: "wxd678efh567hg6787",
      serial: "LOCALMERCHANTSERIAL0001",
      privateKeyFile: path.join(dir, "apiclient_key.pem"),
      // Read from DATA_DIR/wechatpay-local/apiv3.key, made on first start with the local platform's keys.
      apiv3Key: "",
      platformPublicKeyFile: path.join(dir, "pub_key.pem"),
      platformPublicKeyId: "PUB_KEY_ID_0119000001LOCAL",
      notifyUrl: env.WECHATPAY_NOTIFY_URL || `${origin}/api/payments/wechatpay/notify`,
      baseUrl: env.WECHATPAY_BASE_URL || `${origin}${WECHATPAY_LOCAL_PATH}`,
      local: true,
    };
  }
  if (missing.length > 0) throw new Error(`PAYMENT_ADAPTER=wechatpay needs ${missing.join(", ")}`);
  const key = env.WECHATPAY_APIV3_KEY ?? "";
  if (Buffer.byteLength(key) !== 32) throw new Error("WECHATPAY_APIV3_KEY must be the 32-character APIv3 key");
  const baseUrl = env.WECHATPAY_BASE_URL || WECHATPAY_VENDOR_URL;
  if (!/^https?:\/\/[^/]+/.test(baseUrl)) throw new Error("WECHATPAY_BASE_URL must be an http(s) URL");
  return {
    mchid: env.WECHATPAY_MCHID ?? "",
    appid: env.WECHATPAY_APPID ?? "",
    serial: env.WECHATPAY_SERIAL ?? "",
    privateKeyFile: path.resolve(env.WECHATPAY_PRIVATE_KEY_FILE ?? ""),
    apiv3Key: key,
    platformPublicKeyFile: path.resolve(env.WECHATPAY_PLATFORM_PUBLIC_KEY_FILE ?? ""),
    platformPublicKeyId: env.WECHATPAY_PLATFORM_PUBLIC_KEY_ID ?? "",
    notifyUrl: env.WECHATPAY_NOTIFY_URL ?? "",
    baseUrl: baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`,
    local: false,
  };
}

export interface CommerceConfig {
  /** Shipped orders are confirmed as received this many days after shipping. */
  autoConfirmDays: number;
  /** Seconds between the local courier simulator's tracking events. */
  courierStepSeconds: number;
  /** Salt of tracking pushes (sign = MD5(param + salt)); unset: one derived from the secret key (the local courier's). */
  pushSalt: string | undefined;
  /** Kuaidi100 credentials; unset: the local courier simulator issues waybills. */
  kuaidi100: { customer: string; key: string; secret: string; callbackUrl: string } | undefined;
}

function loadCommerceConfig(env: NodeJS.ProcessEnv): CommerceConfig {
  const k = {
    customer: env.KUAIDI100_CUSTOMER,
    key: env.KUAIDI100_KEY,
    secret: env.KUAIDI100_SECRET,
    callbackUrl: env.KUAIDI100_CALLBACK_URL,
  };
  const set = Object.values(k).filter(Boolean).length;
  if (set > 0 && set < 4) {
    throw new Error("Kuaidi100 needs KUAIDI100_CUSTOMER, KUAIDI100_KEY, KUAIDI100_SECRET and KUAIDI100_CALLBACK_URL");
  }
  if (set === 4 && !env.COURIER_PUSH_SALT) {
    throw new Error("Kuaidi100 needs COURIER_PUSH_SALT (the salt its pushes are signed with)");
  }
  return {
    autoConfirmDays: positive("ORDER_AUTO_CONFIRM_DAYS", 10, env),
    courierStepSeconds: positive("COURIER_SIM_STEP_SECONDS", 1800, env),
    pushSalt: env.COURIER_PUSH_SALT || undefined,
    kuaidi100:
      k.customer && k.key && k.secret && k.callbackUrl
        ? { customer: k.customer, key: k.key, secret: k.secret, callbackUrl: k.callbackUrl }
        : undefined,
  };
}

export interface OpsConfig {
  /** A bearer token that opens /metrics to other addresses than loopback; unset: loopback only. */
  metricsToken: string | undefined;
  /** A bearer token that opens /backup/database (the whole database) to other than a direct loopback request. */
  backupToken: string | undefined;
  /** After SIGTERM, how long /readyz says "draining" before the node stops accepting (load balancers notice). */
  drainDelayMs: number;
  /** After that, how long in-flight requests and a running job may take before the process exits anyway. */
  drainTimeoutMs: number;
}

/** The platform's bank accounts that purchasers transfer top-ups to, and the top-up fee (README). */
export interface FundsConfig {
  domesticBank: { accountName: string; bankName: string; accountNumber: string };
  internationalBank: {
    accountName: string;
    bankName: string;
    accountNumber: string;
    swift: string;
    bankAddress: string;
  };
  /** Fee taken from each confirmed top-up, in basis points (100 = 1%). */
  topUpFeeBasisPoints: number;
}

function loadFundsConfig(env: NodeJS.ProcessEnv): FundsConfig {
  const fee = int("TOPUP_FEE_BP", 0, env);
  if (fee > 10_000) throw new Error("TOPUP_FEE_BP must be between 0 and 10000");
  return {
    domesticBank: {
      // The domestic account is shown to Chinese merchants (and printed as the seller on invoices): in Chinese.
      accountName: env.TOPUP_BANK_ACCOUNT_NAME || "泰瑟拉数字科技（深圳）有限公司",
      bankName: env.TOPUP_BANK_NAME || "招商银行深圳分行",
      accountNumber: env.TOPUP_BANK_ACCOUNT_NO || "755900000000001",
    },
    internationalBank: {
      accountName: env.INTL_TOPUP_BANK_ACCOUNT_NAME || "Tessera International Ltd. - Reserve Account",
      bankName: env.INTL_TOPUP_BANK_NAME || "The Hongkong and Shanghai Banking Corporation Ltd.",
      accountNumber: env.INTL_TOPUP_BANK_ACCOUNT_NO || "848000000001",
      swift: env.INTL_TOPUP_BANK_SWIFT || "HSBCHKHHHKH",
      bankAddress: env.INTL_TOPUP_BANK_ADDRESS || "1 Queen's Road Central, Hong Kong",
    },
    topUpFeeBasisPoints: fee,
  };
}

/** The IM service (README, configuration table). */
export interface ImConfig {
  /** The app key is `org#app`; REST paths are /{org}/{app}/... */
  org: string;
  app: string;
  /** Client-credentials grant for back-office servers; derived from the secret key when unset. */
  clientId: string | undefined;
  clientSecret: string | undefined;
  tokenTtlSeconds: number;
  /** Whether POST /{org}/{app}/users works without the app's token. */
  openRegistration: boolean;
  /** The address clients reach this server at, for /easemob/server.json; default: the request's host. */
  publicUrl: string | undefined;
  maxGroupUsers: number;
  maxRoomUsers: number;
  maxAdmins: number;
  maxRoomAttributes: number;
  maxMemberAttributesBytes: number;
  maxReactions: number;
  maxThreadMembers: number;
  fileMaxBytes: number;
  /** Days of message history kept; 0 keeps everything. */
  historyRetentionDays: number;
  /** Days the SDKs' data reports are kept (at least 1): they are diagnostics, not records. */
  sdkReportsRetentionDays: number;
  /** REST requests per second a user's token may make (bursts up to twice that); 0 turns the limit off. */
  rateLimitPerSecond: number;
  /** A LibreTranslate-compatible server; when unset, translation answers "service not open". */
  translateUrl: string | undefined;
  translateApiKey: string | undefined;
  /** Realtime gateway: how long a sender may recall a message, and devices per user at once. */
  recallWindowSeconds: number;
  maxDevices: number;
  /** Redis for delivery between several server processes; unset means one process. */
  redisUrl: string | undefined;
  /**
   * REDIS_PREFIX: what every Redis channel and key of this deployment starts with, so deployments sharing
   * a Redis server never see each other's. Empty here when not set: the context derives one from the
   * database and the installation secret (context.ts), the same on every node of one deployment.
   */
  redisPrefix: string;
}

function redisPrefixOf(raw: string | undefined): string {
  if (raw === undefined || raw === "") return "";
  if (!/^[A-Za-z0-9:._-]{1,64}$/.test(raw)) {
    throw new Error(`REDIS_PREFIX must be 1-64 letters, digits or ":._-", got "${raw}"`);
  }
  return raw.endsWith(":") ? raw : `${raw}:`;
}

function int(name: string, fallback: number, env: NodeJS.ProcessEnv): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

export type StorageConfig =
  | { adapter: "local" }
  | {
      adapter: "s3";
      endpoint: string;
      bucket: string;
      region: string;
      accessKeyId: string;
      secretAccessKey: string;
      prefix: string;
    };

function storageConfig(env: NodeJS.ProcessEnv): StorageConfig {
  const adapter = oneOf("STORAGE_ADAPTER", ["local", "s3"], "local", env);
  if (adapter === "local") return { adapter };
  const need = (name: string): string => {
    const v = env[name];
    if (!v) throw new Error(`STORAGE_ADAPTER=s3 needs ${name}`);
    return v;
  };
  return {
    adapter,
    endpoint: need("S3_ENDPOINT"),
    bucket: need("S3_BUCKET"),
    region: env.S3_REGION || "us-east-1",
    accessKeyId: need("S3_ACCESS_KEY_ID"),
    secretAccessKey: need("S3_SECRET_ACCESS_KEY"),
    prefix: env.S3_PREFIX ?? "",
  };
}

function oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T, env: NodeJS.ProcessEnv): T {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!(allowed as readonly string[]).includes(raw)) throw new Error(`${name} must be one of ${allowed.join(", ")}`);
  return raw as T;
}

/**
 * IM_PUBLIC_URL: the address clients are told to connect to (with several nodes, the balancer's), of which
 * /easemob/server.json can name only scheme, host and port: anything more is refused at start.
 */
function publicUrlConfig(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  if (!url || !/^https?:$/.test(url.protocol) || url.pathname !== "/" || url.search !== "" || url.hash !== "") {
    throw new Error("IM_PUBLIC_URL must be the http(s) address clients reach, scheme, host and port only");
  }
  return url.origin;
}

/** Fastify's trustProxy as TRUST_PROXY gives it: off, every hop, a hop count, or the proxies' addresses and CIDRs. */
export type TrustProxy = boolean | number | string[];

/** proxy-addr's names for whole ranges, accepted beside addresses and CIDRs. */
const TRUST_PROXY_NAMES = ["loopback", "linklocal", "uniquelocal"];

/**
 * TRUST_PROXY: `false` (default: req.ip is the socket's peer, whatever X-Forwarded-For says), `true`
 * (every hop: only behind a proxy that overwrites the header), a hop count (`1`: the address the nearest
 * proxy saw), or comma-separated addresses/CIDRs of the proxies themselves (`127.0.0.1`, `10.0.0.0/8`).
 */
function trustProxyConfig(env: NodeJS.ProcessEnv): TrustProxy {
  const raw = (env.TRUST_PROXY ?? "").trim();
  if (raw === "" || raw === "false") return false;
  if (raw === "true") return true;
  if (/^\d{1,2}$/.test(raw)) return Number(raw) === 0 ? false : Number(raw);
  const entries = raw
    .split(",")
    .map((e) => e.trim())
    .filter((e) => e !== "");
  // Plain addresses only (node's isIP): ipaddr.js would also read "10.1" the inet_aton way.
  const valid = (e: string) =>
    TRUST_PROXY_NAMES.includes(e) || isIP(e) !== 0 || (isIP(e.split("/")[0] ?? "") !== 0 && ipaddr.isValidCIDR(e));
  const bad = entries.filter((e) => !valid(e));
  if (entries.length === 0 || bad.length > 0) {
    throw new Error(
      `TRUST_PROXY must be true, false, a number of proxy hops, or comma-separated proxy addresses/CIDRs ` +
        `(or loopback, linklocal, uniquelocal); not "${bad.join(", ") || raw}"`,
    );
  }
  return entries;
}

/** DEV_ROUTES: off unless said; it serves the local adapters' outbox, so it makes no sense beside real mail. */
function devRoutesConfig(env: NodeJS.ProcessEnv, mailAdapter: "local" | "smtp"): boolean {
  const on = oneOf("DEV_ROUTES", ["true", "false"], "false", env) === "true";
  if (on && mailAdapter !== "local") {
    throw new Error("DEV_ROUTES=true serves the local mail/SMS outbox: it cannot be used with MAIL_ADAPTER=smtp");
  }
  return on;
}

const repoRoot = path.resolve(import.meta.dirname, "../../..");

/** An IANA time zone the runtime knows (Intl), or the default. */
function timeZone(name: string, fallback: string, env: NodeJS.ProcessEnv): string {
  const v = (env[name] ?? "").trim();
  if (!v) return fallback;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: v });
  } catch {
    throw new Error(`${name} must be an IANA time zone (e.g. Asia/Shanghai), got ${v}`);
  }
  return v;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const mailAdapter = oneOf("MAIL_ADAPTER", ["local", "smtp"], "local", env);
  if (mailAdapter === "smtp" && !env.SMTP_URL) throw new Error("MAIL_ADAPTER=smtp needs SMTP_URL");
  const sms = loadSmsConfig(env);
  const config: Config = {
    port: int("PORT", 8080, env),
    host: env.HOST || "0.0.0.0",
    webUrl: (env.PUBLIC_URL || `http://localhost:${int("PORT", 8080, env)}`).replace(/\/+$/, ""),
    dataDir: path.resolve(env.DATA_DIR || "./data"),
    databaseUrl: env.DATABASE_URL || undefined,
    pgliteSharedBuffers: memorySize("PGLITE_SHARED_BUFFERS", DEFAULT_PGLITE_SHARED_BUFFERS, env),
    webDist: path.resolve(env.WEB_DIST || path.join(repoRoot, "apps/web/dist")),
    logLevel: env.LOG_LEVEL || "info",
    secretKey: env.SECRET_KEY || undefined,
    opsEmail: (env.OPS_EMAIL || "ops@tessera.local").toLowerCase(),
    opsPassword: env.OPS_PASSWORD || undefined,
    tokenTtlSeconds: int("TOKEN_TTL_SECONDS", 12 * 3600, env),
    displayZone: timeZone("TZ_DISPLAY", "Asia/Shanghai", env),
    mailAdapter,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || "Tessera <no-reply@tessera.local>",
    sms,
    ...paymentsConfig(env, mailAdapter, sms),
    wechatpay: undefined,
    alipay: undefined,
    argon2MemoryKib: int("ARGON2_MEMORY_KIB", 19456, env),
    argon2Iterations: int("ARGON2_ITERATIONS", 2, env),
    im: loadImConfig(env),
    funds: loadFundsConfig(env),
    invoiceSellerTaxId: env.INVOICE_SELLER_TAX_ID || "91440300MA5G00001W",
    invoiceSellerAddress: env.INVOICE_SELLER_ADDRESS || "深圳市南山区科技园 0755-86000000",
    withdrawalsPerDay: int("WITHDRAWALS_PER_DAY", 3, env),
    autoPayout: oneOf("AUTO_PAYOUT", ["true", "false"], "true", env) === "true",
    commissionHoldDays: int("COMMISSION_HOLD_DAYS", 7, env),
    callbackAllowPrivateNetworks: oneOf("CALLBACK_ALLOW_PRIVATE_NETWORKS", ["true", "false"], "false", env) === "true",
    trustProxy: trustProxyConfig(env),
    devRoutes: devRoutesConfig(env, mailAdapter),
    ops: {
      metricsToken: env.METRICS_TOKEN || undefined,
      backupToken: env.BACKUP_TOKEN || undefined,
      drainDelayMs: int("DRAIN_DELAY_MS", 0, env),
      drainTimeoutMs: int("DRAIN_TIMEOUT_MS", 15_000, env),
    },
    storage: storageConfig(env),
    commerce: loadCommerceConfig(env),
    miniprogram: loadMiniprogramConfig(env),
  };
  if (config.paymentProviders.includes("wechatpay")) {
    config.wechatpay = wechatpayConfig(env, config.mode, config.dataDir, config.port);
  }
  if (config.paymentProviders.includes("alipay")) {
    config.alipay = alipayConfig(env, config.mode, config.dataDir, config.port);
  }
  return config;
}

/** The deployment's mode and its customer payments (issue 37): live when said, or when mail or SMS is real. */
function paymentsConfig(env: NodeJS.ProcessEnv, mailAdapter: Config["mailAdapter"], sms: SmsConfig) {
  const declared = oneOf("TESSERA_MODE", ["sandbox", "live"], "sandbox", env);
  const realMessaging = mailAdapter !== "local" || realSms(sms);
  if (sms.localGateway && (declared === "live" || mailAdapter !== "local")) {
    const name = sms.adapter === "aliyun" ? "ALIYUN_SMS_ENDPOINT" : "TENCENT_SMS_ENDPOINT";
    throw new Error(
      `${name}=local is the local SMS gateway (sandbox only): a live deployment needs the vendor's endpoint`,
    );
  }
  const explicit = env.PAYMENT_ADAPTER !== undefined && env.PAYMENT_ADAPTER !== "";
  const reviewAbove = env.PAYOUT_REVIEW_ABOVE;
  if (reviewAbove !== undefined && reviewAbove !== "" && !/^\d{1,9}(\.\d{1,2})?$/.test(reviewAbove)) {
    throw new Error("PAYOUT_REVIEW_ABOVE must be an amount in yuan, e.g. 50000");
  }
  return {
    mode: declared === "live" || realMessaging ? ("live" as const) : ("sandbox" as const),
    ...paymentAdapterOf(env),
    paymentAdapterExplicit: explicit,
    payoutReviewAbove: reviewAbove ? Math.round(Number(reviewAbove) * 100) : 5_000_000,
    payoutReviewDays: int("PAYOUT_REVIEW_DAYS", 30, env),
  };
}

/** A PostgreSQL memory setting: a whole number with kB, MB or GB. */
function memorySize(name: string, fallback: string, env: NodeJS.ProcessEnv): string {
  const v = env[name] || fallback;
  if (!/^[1-9]\d*(kB|MB|GB)$/.test(v)) throw new Error(`${name} must be a size such as 32MB (kB, MB or GB)`);
  return v;
}

/** A whole number of at least 1; one message for every bad value, so "0" and "abc" read the same. */
function positive(name: string, fallback: number, env: NodeJS.ProcessEnv): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number of at least 1, got "${raw}"`);
  return n;
}

const IM_NAME_RE = /^[a-zA-Z0-9_-]{1,64}$/;

function loadImConfig(env: NodeJS.ProcessEnv): ImConfig {
  const org = env.IM_ORG || "tessera";
  const app = env.IM_APP || "im";
  if (!IM_NAME_RE.test(org) || !IM_NAME_RE.test(app)) {
    throw new Error("IM_ORG and IM_APP must be 1-64 letters, digits, _ or -");
  }
  const openRegistration = oneOf("IM_OPEN_REGISTRATION", ["true", "false"], "false", env) === "true";
  return {
    org,
    app,
    clientId: env.IM_CLIENT_ID || undefined,
    clientSecret: env.IM_CLIENT_SECRET || undefined,
    tokenTtlSeconds: positive("IM_TOKEN_TTL_SECONDS", 7 * 24 * 3600, env),
    openRegistration,
    publicUrl: publicUrlConfig(env.IM_PUBLIC_URL),
    maxGroupUsers: positive("IM_MAX_GROUP_USERS", 3000, env),
    maxRoomUsers: positive("IM_MAX_ROOM_USERS", 10000, env),
    maxAdmins: int("IM_MAX_ADMINS", 99, env),
    maxRoomAttributes: positive("IM_MAX_ROOM_ATTRIBUTES", 100, env),
    maxMemberAttributesBytes: positive("IM_MAX_MEMBER_ATTRIBUTES_BYTES", 4096, env),
    maxReactions: positive("IM_MAX_REACTIONS", 20, env),
    maxThreadMembers: positive("IM_MAX_THREAD_MEMBERS", 10000, env),
    fileMaxBytes: positive("IM_FILE_MAX_BYTES", 10 * 1024 * 1024, env),
    historyRetentionDays: int("IM_HISTORY_RETENTION_DAYS", 0, env),
    sdkReportsRetentionDays: positive("IM_SDK_REPORTS_RETENTION_DAYS", 30, env),
    rateLimitPerSecond: int("IM_RATE_LIMIT_PER_SECOND", 100, env),
    translateUrl: env.TRANSLATE_URL ? env.TRANSLATE_URL.replace(/\/+$/, "") : undefined,
    translateApiKey: env.TRANSLATE_API_KEY || undefined,
    recallWindowSeconds: positive("IM_RECALL_WINDOW_SECONDS", 120, env),
    maxDevices: positive("IM_MAX_DEVICES", 4, env),
    redisUrl: env.REDIS_URL || undefined,
    redisPrefix: redisPrefixOf(env.REDIS_PREFIX),
  };
}

export interface MiniprogramConfig {
  /** "local": the offline platform simulator (default); "http": the real WeChat / Douyin open APIs. */
  adapter: "local" | "http";
  /** The local platform's review submissions per month (shared by every merchant, like wxa/queryquota). */
  auditQuota: number;
  /** The local platform's privacy scan after a commit: a submit sooner gets 61039. */
  scanSeconds: number;
  /** Third-party platform credentials for the real adapters. */
  wechat: { componentAppId: string; componentSecret: string } | undefined;
  douyin: { componentAppId: string; componentSecret: string } | undefined;
  /** Douyin's open-platform app for local-life authorisation (open.douyin.com OAuth), with its scopes. */
  douyinLife: { clientKey: string; clientSecret: string; scopes: string[] } | undefined;
}

function loadMiniprogramConfig(env: NodeJS.ProcessEnv): MiniprogramConfig {
  const adapter = oneOf("MP_ADAPTER", ["local", "http"], "local", env);
  const pair = (id: string | undefined, secret: string | undefined) =>
    id && secret ? { componentAppId: id, componentSecret: secret } : undefined;
  const wechat = pair(env.MP_WECHAT_COMPONENT_APPID, env.MP_WECHAT_COMPONENT_SECRET);
  const douyin = pair(env.MP_DOUYIN_COMPONENT_APPID, env.MP_DOUYIN_COMPONENT_SECRET);
  if (adapter === "http" && (!wechat || !douyin)) {
    throw new Error("MP_ADAPTER=http needs MP_WECHAT_COMPONENT_APPID/SECRET and MP_DOUYIN_COMPONENT_APPID/SECRET");
  }
  const lifeKey = env.MP_DOUYIN_LIFE_CLIENT_KEY;
  const lifeSecret = env.MP_DOUYIN_LIFE_CLIENT_SECRET;
  const lifeScopes = (env.MP_DOUYIN_LIFE_SCOPES ?? "")
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);
  if (lifeKey && (!lifeSecret || lifeScopes.length === 0)) {
    throw new Error(
      "MP_DOUYIN_LIFE_CLIENT_KEY needs MP_DOUYIN_LIFE_CLIENT_SECRET and MP_DOUYIN_LIFE_SCOPES (the scopes the app asks merchants for, comma-separated)",
    );
  }
  const douyinLife =
    lifeKey && lifeSecret ? { clientKey: lifeKey, clientSecret: lifeSecret, scopes: lifeScopes } : undefined;
  return {
    adapter,
    auditQuota: positive("MP_AUDIT_QUOTA", 20, env),
    scanSeconds: int("MP_PRIVACY_SCAN_SECONDS", 3, env),
    wechat,
    douyin,
    douyinLife,
  };
}
