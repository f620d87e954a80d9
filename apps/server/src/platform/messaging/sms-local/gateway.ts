import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Executor } from "../../../db/tx";
import { recordOutbox } from "../outbox.repo";
import type { LocalSmsKeys } from "./keys";
import {
  acs3Sign,
  parseAcs3Authorization,
  parseTc3Authorization,
  sameSignature,
  sha256Hex,
  tc3Date,
  tc3Sign,
} from "./signatures";

/** A template the local gateway has "approved": its code, its text with `${name}` variables, their order. */
export interface LocalTemplate {
  code: string;
  content: string;
  params: readonly string[];
  /** A verification-code template: the vendors' per-phone frequency limits for codes apply. */
  verification: boolean;
}

export interface LocalSmsGatewayOptions {
  db: Executor;
  keys: LocalSmsKeys;
  signNames: readonly string[];
  templates: readonly LocalTemplate[];
  log: (line: string) => void;
  /** Wall-clock milliseconds (the vendors check request times against theirs). */
  now?: () => number;
}

export interface LocalSmsGateway {
  /** http://127.0.0.1:<port>: the endpoint the SDKs are pointed at. */
  url: string;
  close(): Promise<void>;
}

/** The vendors' default per-phone limits for verification codes: [window ms, most messages, the vendor's code]. */
const LIMITS = {
  aliyun: [
    [60_000, 1, "isv.BUSINESS_LIMIT_CONTROL"],
    [3_600_000, 5, "isv.BUSINESS_LIMIT_CONTROL"],
    [86_400_000, 10, "isv.BUSINESS_LIMIT_CONTROL"],
  ],
  tencent: [
    [30_000, 1, "LimitExceeded.PhoneNumberThirtySecondLimit"],
    [3_600_000, 5, "LimitExceeded.PhoneNumberOneHourLimit"],
    [86_400_000, 10, "LimitExceeded.PhoneNumberDailyLimit"],
  ],
} as const;

const MAINLAND_MOBILE = /^(?:\+?86|0086)?(1[3-9]\d{9})$/;
const MAX_BODY = 64 * 1024;
const ACS_MAX_SKEW_MS = 15 * 60_000;
const TC_MAX_SKEW_S = 300;

type Json = Record<string, unknown>;
interface Reply {
  status: number;
  body: Json;
}

/**
 * The local SMS gateway (sandbox only, issue 41): one HTTP listener on loopback that answers Alibaba Cloud's
 * SendSms (RPC style, signature V3) and Tencent Cloud's SendSms 2021-01-11 (TC3-HMAC-SHA256) as the
 * vendors do. It checks each signature with the locally generated keys, the sign name, the template and its
 * variables, the number and the vendors' per-phone limits for codes, answers in the vendor's shape (success
 * and error codes), and keeps what it "delivered" in the dev outbox, where the dev routes and tests read codes.
 */
export async function startLocalSmsGateway(o: LocalSmsGatewayOptions): Promise<LocalSmsGateway> {
  const now = o.now ?? Date.now;
  const sent = new Map<string, number[]>();
  const nonces = new Map<string, number>();
  const templates = new Map(o.templates.map((t) => [t.code, t]));

  /** The vendor's per-phone limit this message would break, or undefined (and then it counts). */
  function limited(vendor: "aliyun" | "tencent", phone: string, template: LocalTemplate): string | undefined {
    if (!template.verification) return undefined;
    const key = `${vendor}:${phone}`;
    const t = now();
    const times = (sent.get(key) ?? []).filter((at) => at > t - 86_400_000);
    for (const [window, most, code] of LIMITS[vendor]) {
      if (times.filter((at) => at > t - window).length >= most) return code;
    }
    sent.set(key, [...times, t]);
    return undefined;
  }

  async function deliver(vendor: string, phone: string, signName: string, text: string, id: string): Promise<void> {
    await recordOutbox(o.db, { channel: "sms", recipient: phone, subject: "", body: `【${signName}】${text}` });
    o.log(`[sms-local:${vendor}] delivered ${id} to=${phone.slice(0, 3)}****${phone.slice(-4)}`);
  }

  /* ---------- Alibaba Cloud: POST / ?PhoneNumbers=…&SignName=…&TemplateCode=…&TemplateParam=… ---------- */

  async function aliyun(req: IncomingMessage, url: URL, body: Buffer): Promise<Reply> {
    const requestId = randomUUID().toUpperCase();
    const fail = (status: number, code: string, message: string): Reply => ({
      status,
      body: { RequestId: requestId, HostId: "dysmsapi.aliyuncs.com", Code: code, Message: message },
    });
    const auth = parseAcs3Authorization(header(req, "authorization"));
    if (!auth) return fail(400, "IncompleteSignature", "The request signature does not conform to Aliyun standards.");
    if (auth.accessKeyId !== o.keys.aliyun.accessKeyId) {
      return fail(404, "InvalidAccessKeyId.NotFound", "Specified access key is not found.");
    }
    const acsHeaders = Object.keys(req.headers).filter((h) => h.startsWith("x-acs-"));
    if (!["host", ...acsHeaders].every((h) => auth.signedHeaders.includes(h))) {
      return fail(400, "IncompleteSignature", "The request signature does not sign every common header.");
    }
    const payloadHash = sha256Hex(body);
    const signed = acs3Sign({
      method: req.method ?? "",
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: Object.fromEntries(auth.signedHeaders.map((h) => [h, header(req, h)])),
      payloadHash,
      secret: o.keys.aliyun.accessKeySecret,
    });
    if (header(req, "x-acs-content-sha256") !== payloadHash || !sameSignature(signed.signature, auth.signature)) {
      return fail(400, "SignatureDoesNotMatch", "Specified signature does not match our calculation.");
    }
    const at = Date.parse(header(req, "x-acs-date"));
    if (!Number.isFinite(at) || Math.abs(now() - at) > ACS_MAX_SKEW_MS) {
      return fail(400, "InvalidTimeStamp.Expired", "Specified time stamp or date value is expired.");
    }
    const nonce = header(req, "x-acs-signature-nonce");
    for (const [n, t] of nonces) if (t < now() - ACS_MAX_SKEW_MS) nonces.delete(n);
    if (!nonce || nonces.has(nonce)) {
      return fail(400, "SignatureNonceUsed", "Specified signature nonce was used already.");
    }
    nonces.set(nonce, now());
    if (header(req, "x-acs-action") !== "SendSms" || header(req, "x-acs-version") !== "2017-05-25") {
      return fail(404, "InvalidAction.NotFound", "Specified api is not found, please check your url and method.");
    }
    const q = url.searchParams;
    const ok = (code: string, message: string): Reply => ({
      status: 200,
      body: { RequestId: requestId, Code: code, Message: message },
    });
    const signName = q.get("SignName") ?? "";
    if (!o.signNames.includes(signName)) return ok("isv.SMS_SIGNATURE_ILLEGAL", "该账号下找不到对应签名");
    const template = templates.get(q.get("TemplateCode") ?? "");
    if (!template) return ok("isv.SMS_TEMPLATE_ILLEGAL", "该账号下找不到对应模板");
    const params = templateParam(q.get("TemplateParam") ?? "{}");
    if (!params) return ok("isv.INVALID_JSON_PARAM", "JSON参数不合法，只接受字符串值");
    if (template.params.some((p) => template.content.includes(`\${${p}}`) && params[p] === undefined)) {
      return ok("isv.TEMPLATE_MISSING_PARAMETERS", "模板变量缺少对应参数值");
    }
    const phone = MAINLAND_MOBILE.exec(q.get("PhoneNumbers") ?? "")?.[1];
    if (!phone) return ok("isv.MOBILE_NUMBER_ILLEGAL", "非法手机号");
    const limit = limited("aliyun", phone, template);
    if (limit) return ok(limit, "触发号码天级流控Permits:1");
    const bizId = `${Date.now()}${String(Math.floor(Math.random() * 1e6)).padStart(6, "0")}^0`;
    const text = template.content.replace(/\$\{(\w+)\}/g, (_m, name: string) => String(params[name] ?? ""));
    await deliver("aliyun", phone, signName, text, bizId);
    return { status: 200, body: { RequestId: requestId, Code: "OK", Message: "OK", BizId: bizId } };
  }

  /* ---------- Tencent Cloud: POST / JSON {PhoneNumberSet, SmsSdkAppId, SignName, TemplateId, TemplateParamSet} ---------- */

  async function tencent(req: IncomingMessage, url: URL, body: Buffer): Promise<Reply> {
    const requestId = randomUUID();
    const fail = (code: string, message: string): Reply => ({
      status: 200,
      body: { Response: { Error: { Code: code, Message: message }, RequestId: requestId } },
    });
    const auth = parseTc3Authorization(header(req, "authorization"));
    if (!auth || !auth.signedHeaders.includes("content-type") || !auth.signedHeaders.includes("host")) {
      return fail("AuthFailure.InvalidAuthorization", "Authorization is invalid.");
    }
    if (auth.secretId !== o.keys.tencent.secretId) {
      return fail("AuthFailure.SecretIdNotFound", "SecretId is not found.");
    }
    const timestamp = Number(header(req, "x-tc-timestamp"));
    if (!Number.isInteger(timestamp) || Math.abs(now() / 1000 - timestamp) > TC_MAX_SKEW_S) {
      return fail("AuthFailure.SignatureExpire", "Signature expired.");
    }
    // The vendor's host names carry no port; the SDK signs the host name, so a port is left out here too.
    const host = header(req, "host").replace(/:\d+$/, "");
    if (auth.date !== tc3Date(timestamp) || auth.service !== host.split(".")[0]) {
      return fail("AuthFailure.InvalidAuthorization", "Credential scope does not match the request.");
    }
    const signed = tc3Sign({
      method: req.method ?? "",
      path: url.pathname,
      query: url.search.slice(1),
      headers: Object.fromEntries(auth.signedHeaders.map((h) => [h, h === "host" ? host : header(req, h)])),
      payload: body,
      timestamp,
      service: auth.service,
      secretKey: o.keys.tencent.secretKey,
    });
    if (!sameSignature(signed.signature, auth.signature)) {
      return fail("AuthFailure.SignatureFailure", "The provided credentials could not be validated.");
    }
    if (header(req, "x-tc-action") !== "SendSms" || header(req, "x-tc-version") !== "2021-01-11") {
      return fail("InvalidAction", "The action does not exist in this version.");
    }
    let r: {
      PhoneNumberSet?: unknown;
      SmsSdkAppId?: unknown;
      SignName?: unknown;
      TemplateId?: unknown;
      TemplateParamSet?: unknown;
    };
    try {
      r = JSON.parse(body.toString("utf8")) as typeof r;
    } catch {
      return fail("InvalidParameter", "The request body is not JSON.");
    }
    if (r.SmsSdkAppId !== o.keys.tencent.sdkAppId) {
      return fail("UnauthorizedOperation.SmsSdkAppIdVerifyFail", "SmsSdkAppId verification failed.");
    }
    const signName = typeof r.SignName === "string" ? r.SignName : "";
    if (!o.signNames.includes(signName)) {
      return fail("FailedOperation.SignatureIncorrectOrUnapproved", "The signature is incorrect or unapproved.");
    }
    const template = templates.get(typeof r.TemplateId === "string" ? r.TemplateId : "");
    if (!template) {
      return fail("FailedOperation.TemplateIncorrectOrUnapproved", "The template is incorrect or unapproved.");
    }
    const values = Array.isArray(r.TemplateParamSet) ? r.TemplateParamSet.map(String) : [];
    if (values.length !== template.params.length) {
      return fail(
        "FailedOperation.TemplateParamSetNotMatchApprovedTemplate",
        "The parameters do not match the template.",
      );
    }
    const numbers = Array.isArray(r.PhoneNumberSet) ? r.PhoneNumberSet.map(String) : [];
    const statuses: Json[] = [];
    for (const number of numbers) {
      const phone = MAINLAND_MOBILE.exec(number)?.[1];
      const base = { PhoneNumber: number, SessionContext: "", IsoCode: "CN" };
      if (!phone) {
        statuses.push({
          ...base,
          SerialNo: "",
          Fee: 0,
          Code: "InvalidParameterValue.IncorrectPhoneNumber",
          Message: "incorrect phone number",
        });
        continue;
      }
      const limit = limited("tencent", phone, template);
      if (limit) {
        statuses.push({ ...base, SerialNo: "", Fee: 0, Code: limit, Message: "the number has reached its limit" });
        continue;
      }
      const serialNo = `2028:${randomUUID().replace(/-/g, "").slice(0, 20)}`;
      const text = template.content.replace(
        /\$\{(\w+)\}/g,
        (_m, name: string) => values[template.params.indexOf(name)] ?? "",
      );
      await deliver("tencent", phone, signName, text, serialNo);
      statuses.push({ ...base, SerialNo: serialNo, Fee: 1, Code: "Ok", Message: "send success" });
    }
    return { status: 200, body: { Response: { SendStatusSet: statuses, RequestId: requestId } } };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let reply: Reply;
    try {
      const body = await readBody(req);
      const url = new URL(req.url ?? "/", "http://gateway.local");
      if (req.method !== "POST" && req.method !== "GET") reply = { status: 405, body: { Code: "MethodNotAllowed" } };
      else if (req.headers["x-acs-action"] !== undefined) reply = await aliyun(req, url, body);
      else if (req.headers["x-tc-action"] !== undefined) reply = await tencent(req, url, body);
      else {
        reply = {
          status: 404,
          body: {
            Code: "NotFound",
            Message: "Alibaba Cloud (x-acs-action) or Tencent Cloud (X-TC-Action) requests only",
          },
        };
      }
    } catch (err) {
      o.log(`[sms-local] internal error: ${err instanceof Error ? err.message : String(err)}`);
      reply = {
        status: 500,
        body: { Code: "InternalError", Message: "The request processing has failed due to some unknown error." },
      };
    }
    res.writeHead(reply.status, { "content-type": "application/json;charset=utf-8" });
    res.end(JSON.stringify(reply.body));
  }

  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  // The gateway never keeps a process alive on its own (it lives as long as the server or test using it).
  server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Alibaba Cloud's TemplateParam: a JSON object of strings (numbers pass), or undefined. */
function templateParam(raw: string): Record<string, string | number> | undefined {
  try {
    const v: unknown = JSON.parse(raw);
    if (!v || typeof v !== "object" || Array.isArray(v)) return undefined;
    const entries = Object.entries(v as Record<string, unknown>);
    if (entries.some(([, x]) => typeof x !== "string" && typeof x !== "number")) return undefined;
    return Object.fromEntries(entries) as Record<string, string | number>;
  } catch {
    return undefined;
  }
}

function header(req: IncomingMessage, name: string): string {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(",") : (v ?? "");
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new Error("body too large"));
        req.destroy();
      } else chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}
