import { CODE } from "@tessera/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../../../test/kit/use-test-app";
import { AppError } from "../../http/errors";
import { listOutbox } from "../outbox.repo";
import { createAliyunSms } from "../sms/aliyun";
import { localTemplateCode } from "../sms/config";
import { SMS_KINDS, type SmsKind, type SmsMessage } from "../sms/kinds";
import { createTencentSms } from "../sms/tencent";
import { startLocalSmsGateway, type LocalSmsGateway } from "./gateway";
import { acs3Sign, sha256Hex } from "./signatures";
import type { LocalSmsKeys } from "./keys";
import { localTemplates } from "./sender";

/**
 * Issue 41: the Alibaba Cloud and Tencent Cloud adapters, through the vendors' own SDKs, against the local
 * SMS gateway: what is sent arrives in the outbox with the template's text and variables; what the vendor
 * refuses (a wrong secret, a bad number, its per-phone limits, an unreachable endpoint) is the user's
 * AppError and delivers nothing.
 */
const t = useTestApp();

const keys: LocalSmsKeys = {
  aliyun: { accessKeyId: "LTAI5tLocalTestKeyId0001", accessKeySecret: "local-test-secret-aliyun-000000" },
  tencent: {
    secretId: "AKIDlocaltestsecretid00000000000001",
    secretKey: "local-test-secret-tencent-00000",
    sdkAppId: "1400123456",
  },
};
const templatesOf = (vendor: "aliyun" | "tencent") =>
  Object.fromEntries(SMS_KINDS.map((k) => [k, localTemplateCode(vendor, k)])) as Record<SmsKind, string>;

let gateway: LocalSmsGateway;
const logs: string[] = [];
const log = (line: string) => logs.push(line);
beforeAll(async () => {
  gateway = await startLocalSmsGateway({
    db: t.ctx.database.db,
    keys,
    signNames: ["Tessera"],
    templates: [...localTemplates(templatesOf("aliyun")), ...localTemplates(templatesOf("tencent"))],
    log,
  });
});
afterAll(async () => {
  await gateway.close();
});

const aliyun = (over: Partial<LocalSmsKeys["aliyun"]> = {}, endpoint = gateway.url) =>
  createAliyunSms({ ...keys.aliyun, ...over, endpoint, signName: "Tessera", templates: templatesOf("aliyun") }, log);
const tencent = (over: Partial<LocalSmsKeys["tencent"]> = {}) =>
  createTencentSms(
    {
      ...keys.tencent,
      ...over,
      region: "ap-guangzhou",
      endpoint: gateway.url,
      signName: "Tessera",
      templates: templatesOf("tencent"),
    },
    log,
  );

const outboxOf = async (phone: string) =>
  (await listOutbox(t.ctx.database.db, { to: phone, channel: "sms", page: 1, pageSize: 20 })).rows.map((r) => r.body);

const codeMessage = (to: string, code: string): SmsMessage => ({
  to,
  kind: "code.customerLogin",
  params: { code, minutes: 5 },
  text: `[Tessera] Code ${code}`,
});

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe("Alibaba Cloud adapter (@alicloud/dysmsapi20170525) against the local gateway", () => {
  it("sends the kind's template with its variables; the gateway delivers the approved text to the outbox", async () => {
    const sent = await aliyun().send(codeMessage("13800138001", "246810"));
    expect(sent.bizId).toMatch(/\^0$/);
    expect(await outboxOf("13800138001")).toEqual([
      "【Tessera】验证码 246810，用于登录卡包，5分钟内有效，请勿告诉他人。",
    ]);
  });

  it("a wrong secret or an unknown key is refused by the gateway: sms.sendFailed, nothing delivered", async () => {
    const wrongSecret = await refusal(
      aliyun({ accessKeySecret: "not-the-secret" }).send(codeMessage("13800138002", "111111")),
    );
    expect(wrongSecret).toMatchObject({ code: CODE.SEND_FAILED, messageKey: "sms.sendFailed" });
    expect(logs.at(-1)).toContain("SignatureDoesNotMatch");
    const unknownKey = await refusal(
      aliyun({ accessKeyId: "LTAI5tSomebodyElse" }).send(codeMessage("13800138002", "111111")),
    );
    expect(unknownKey.messageKey).toBe("sms.sendFailed");
    expect(logs.at(-1)).toContain("InvalidAccessKeyId.NotFound");
    expect(await outboxOf("13800138002")).toEqual([]);
  });

  it("a number the vendor refuses and its per-phone limit for codes: the user's errors, one message delivered", async () => {
    const bad = await refusal(aliyun().send(codeMessage("10012345678", "222222")));
    expect(bad).toMatchObject({ code: CODE.SEND_FAILED, messageKey: "sms.sendFailed" });
    expect(logs.at(-1)).toContain("isv.MOBILE_NUMBER_ILLEGAL");
    await aliyun().send(codeMessage("13800138003", "333333"));
    const again = await refusal(aliyun().send(codeMessage("13800138003", "444444")));
    expect(again).toMatchObject({ code: CODE.TOO_MANY_REQUESTS, messageKey: "sms.tooFrequent" });
    expect(logs.at(-1)).toContain("isv.BUSINESS_LIMIT_CONTROL");
    // A notice is not a code: the limit for codes does not hold it back.
    await aliyun().send({ to: "13800138003", kind: "cardLocked", params: { last4: "0042", minutes: 30 }, text: "" });
    expect(await outboxOf("13800138003")).toEqual([
      "【Tessera】您尾号0042的卡密码错误次数过多，已锁定30分钟。",
      "【Tessera】验证码 333333，用于登录卡包，5分钟内有效，请勿告诉他人。",
    ]);
  });

  it("an unreachable endpoint is sms.sendFailed", async () => {
    const down = await startLocalSmsGateway({ db: t.ctx.database.db, keys, signNames: [], templates: [], log });
    await down.close();
    const err = await refusal(aliyun({}, down.url).send(codeMessage("13800138004", "555555")));
    expect(err.messageKey).toBe("sms.sendFailed");
    expect(await outboxOf("13800138004")).toEqual([]);
  });
});

describe("the gateway's checks of Alibaba Cloud's signed requests", () => {
  /** A SendSms request signed as the SDK signs it (ACS3-HMAC-SHA256), sent with fetch; `tamper` changes it after signing. */
  async function signedSend(
    query: Record<string, string>,
    nonce: string,
    tamper: (q: URLSearchParams) => void = () => {},
  ) {
    const host = gateway.url.replace("http://", "");
    const headers: Record<string, string> = {
      host,
      "x-acs-action": "SendSms",
      "x-acs-version": "2017-05-25",
      "x-acs-date": new Date().toISOString().replace(/\.\d{3}Z$/, "Z"),
      "x-acs-signature-nonce": nonce,
      "x-acs-content-sha256": sha256Hex(""),
    };
    const { signedHeaders, signature } = acs3Sign({
      method: "POST",
      path: "/",
      query,
      headers,
      payloadHash: sha256Hex(""),
      secret: keys.aliyun.accessKeySecret,
    });
    const q = new URLSearchParams(query);
    tamper(q);
    const res = await fetch(`${gateway.url}/?${q.toString()}`, {
      method: "POST",
      headers: {
        ...headers,
        authorization: `ACS3-HMAC-SHA256 Credential=${keys.aliyun.accessKeyId},SignedHeaders=${signedHeaders},Signature=${signature}`,
      },
    });
    return { status: res.status, body: (await res.json()) as { Code: string } };
  }
  const query = (phone: string) => ({
    PhoneNumbers: phone,
    SignName: "Tessera",
    TemplateCode: localTemplateCode("aliyun", "cardLocked"),
    TemplateParam: JSON.stringify({ last4: "0007", minutes: 30 }),
  });

  it("takes a request signed by hand as the documentation says, once: the same nonce again is refused", async () => {
    const first = await signedSend(query("13700137001"), "nonce-replay-0001");
    expect(first).toMatchObject({ status: 200, body: { Code: "OK" } });
    const replay = await signedSend(query("13700137001"), "nonce-replay-0001");
    expect(replay).toMatchObject({ status: 400, body: { Code: "SignatureNonceUsed" } });
    expect(await outboxOf("13700137001")).toHaveLength(1);
  });

  it("refuses a request changed after signing (another number, other variables)", async () => {
    const number = await signedSend(query("13700137002"), "nonce-tamper-0001", (q) =>
      q.set("PhoneNumbers", "13700137003"),
    );
    expect(number).toMatchObject({ status: 400, body: { Code: "SignatureDoesNotMatch" } });
    const params = await signedSend(query("13700137002"), "nonce-tamper-0002", (q) =>
      q.set("TemplateParam", JSON.stringify({ last4: "9999", minutes: 30 })),
    );
    expect(params).toMatchObject({ status: 400, body: { Code: "SignatureDoesNotMatch" } });
    expect(await outboxOf("13700137002")).toEqual([]);
    expect(await outboxOf("13700137003")).toEqual([]);
  });
});

describe("Tencent Cloud adapter (tencentcloud-sdk-nodejs-sms) against the local gateway", () => {
  it("sends the template with positional variables; the gateway delivers the approved text", async () => {
    const sent = await tencent().send({
      to: "13900139001",
      kind: "giftNotice",
      params: { from: "Brew Brand", count: 2, link: "https://shop.example/client/claim?token=7.abc" },
      text: "",
    });
    expect(sent.serialNo).not.toBe("");
    expect(await outboxOf("13900139001")).toEqual([
      "【Tessera】Brew Brand送您2张礼品卡，点击领取：https://shop.example/client/claim?token=7.abc （请用本手机号登录）",
    ]);
  });

  it("a wrong secret, a wrong SdkAppId: refused (AuthFailure.SignatureFailure, SmsSdkAppIdVerifyFail), nothing delivered", async () => {
    const wrongSecret = await refusal(
      tencent({ secretKey: "not-the-secret" }).send(codeMessage("13900139002", "111111")),
    );
    expect(wrongSecret).toMatchObject({ code: CODE.SEND_FAILED, messageKey: "sms.sendFailed" });
    expect(logs.at(-1)).toContain("AuthFailure.SignatureFailure");
    await refusal(tencent({ sdkAppId: "1400999999" }).send(codeMessage("13900139002", "111111")));
    expect(logs.at(-1)).toContain("UnauthorizedOperation.SmsSdkAppIdVerifyFail");
    expect(await outboxOf("13900139002")).toEqual([]);
  });

  it("its per-phone limit for codes (one in 30 seconds) is sms.tooFrequent", async () => {
    await tencent().send(codeMessage("13900139003", "666666"));
    const again = await refusal(tencent().send(codeMessage("13900139003", "777777")));
    expect(again).toMatchObject({ code: CODE.TOO_MANY_REQUESTS, messageKey: "sms.tooFrequent" });
    expect(logs.at(-1)).toContain("LimitExceeded.PhoneNumberThirtySecondLimit");
    expect(await outboxOf("13900139003")).toEqual([
      "【Tessera】验证码 666666，用于登录卡包，5分钟内有效，请勿告诉他人。",
    ]);
  });
});
