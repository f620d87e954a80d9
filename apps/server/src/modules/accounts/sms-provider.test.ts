import { existsSync } from "node:fs";
import path from "node:path";
import { CODE } from "@tessera/contracts";
import { describe, expect, it } from "vitest";
import { lastCode } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { loadConfig } from "../../config";
import * as repo from "./repo";

/**
 * Issue 41: SMS_ADAPTER=aliyun with ALIYUN_SMS_ENDPOINT=local is sandbox: the real Alibaba Cloud adapter
 * (the vendor's SDK, keys generated into DATA_DIR) against the local SMS gateway, which keeps what it
 * delivers in the dev outbox. An SMS login goes through it end to end; a send the vendor refuses is the
 * user's error and leaves no valid code behind.
 */
const t = useTestApp({ SMS_ADAPTER: "aliyun", ALIYUN_SMS_ENDPOINT: "local" });

let seq = 0;
const newPhone = () => `13${String(Date.now() + ++seq * 7919).slice(-9)}`;

describe("SMS through the Alibaba Cloud adapter and the local gateway", () => {
  it("is sandbox, with the gateway's keys in DATA_DIR", () => {
    expect(t.config.mode).toBe("sandbox");
    expect(t.ctx.sms.kind).toBe("aliyun");
  });

  it("logs a customer in with the code the gateway delivered", async () => {
    const phone = newPhone();
    const sent = await t.call<{ expiresIn: number }>("POST", "/api/mall/customer/sendSms", { body: { phone } });
    expect(sent.body.code).toBe(1);
    expect(existsSync(path.join(t.config.dataDir, "sms-local", "keys.json"))).toBe(true);
    const outbox = await t.call<{ list: { body: string }[] }>("GET", `/api/dev/outbox?to=${phone}`);
    expect(outbox.body.data.list[0]?.body).toMatch(
      /^【Tessera】验证码 \d{6}，用于登录卡包，10分钟内有效，请勿告诉他人。$/,
    );
    const login = await t.call<{ token: string }>("POST", "/api/mall/customer/login", {
      body: { phone, smsCode: await lastCode(t, phone) },
    });
    expect(login.body.code).toBe(1);
    expect(login.body.data.token).not.toBe("");
  });

  it("a code the vendor will not send (its per-phone limit) is the user's error and is not left valid", async () => {
    const phone = newPhone();
    expect((await t.call("POST", "/api/mall/customer/sendSms", { body: { phone } })).body.code).toBe(1);
    // Another scene, so our own resend limit lets it through; the vendor's one-code-a-minute limit does not.
    const refused = await t.call("POST", "/api/card-user/sendSms", {
      body: { phone, scene: "cardPassword" },
      lang: "en",
    });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      code: CODE.TOO_MANY_REQUESTS,
      msg: "This number has received too many text messages. Please try again later",
    });
    expect(await repo.latestCode(t.ctx.database.db, { channel: "sms", target: phone, scene: "cardPassword" })).toBe(
      undefined,
    );
    const outbox = await t.call<{ list: unknown[] }>("GET", `/api/dev/outbox?to=${phone}`);
    expect(outbox.body.data.list).toHaveLength(1);
  });

  it("a number the vendor refuses is sms.sendFailed in the user's language, and no code is kept", async () => {
    const phone = "10012345678";
    const refused = await t.call("POST", "/api/mall/customer/sendSms", { body: { phone }, lang: "cn" });
    expect(refused.status).toBe(502);
    expect(refused.body).toMatchObject({ code: CODE.SEND_FAILED, msg: "短信发送失败，请稍后重试" });
    expect(await repo.latestCode(t.ctx.database.db, { channel: "sms", target: phone, scene: "customerLogin" })).toBe(
      undefined,
    );
  });
});

describe("SMS settings", () => {
  const base = { DATA_DIR: "/tmp/unused" };
  it("a vendor adapter with the vendor's endpoint is live and needs its keys, sign name and every template", () => {
    expect(() => loadConfig({ ...base, SMS_ADAPTER: "aliyun" })).toThrow(
      /SMS_ADAPTER=aliyun needs SMS_SIGN_NAME, SMS_TEMPLATE_CODE_BIND_PHONE \(or SMS_TEMPLATE_CODE\).*SMS_TEMPLATE_GIFT_NOTICE, SMS_TEMPLATE_CARD_LOCKED, ALIYUN_SMS_ACCESS_KEY_ID, ALIYUN_SMS_ACCESS_KEY_SECRET/,
    );
    const live = loadConfig({
      ...base,
      SMS_ADAPTER: "tencent",
      SMS_SIGN_NAME: "Tessera",
      SMS_TEMPLATE_CODE: "1000001",
      SMS_TEMPLATE_CODE_CUSTOMER_LOGIN: "1000002",
      SMS_TEMPLATE_GIFT_NOTICE: "1000003",
      SMS_TEMPLATE_CARD_LOCKED: "1000004",
      TENCENT_SMS_SECRET_ID: "AKIDx",
      TENCENT_SMS_SECRET_KEY: "k",
      TENCENT_SMS_SDK_APP_ID: "1400000001",
    });
    expect(live.mode).toBe("live");
    expect(live.sms.templates).toMatchObject({
      "code.customerLogin": "1000002",
      "code.bindPhone": "1000001",
      giftNotice: "1000003",
    });
    expect(live.sms.tencent).toMatchObject({ region: "ap-guangzhou", endpoint: "sms.tencentcloudapi.com" });
  });

  it("the local gateway is sandbox only: a live deployment refuses it", () => {
    expect(loadConfig({ ...base, SMS_ADAPTER: "tencent", TENCENT_SMS_ENDPOINT: "local" }).mode).toBe("sandbox");
    expect(() =>
      loadConfig({ ...base, SMS_ADAPTER: "aliyun", ALIYUN_SMS_ENDPOINT: "local", TESSERA_MODE: "live" }),
    ).toThrow(/ALIYUN_SMS_ENDPOINT=local is the local SMS gateway \(sandbox only\)/);
    expect(() => loadConfig({ ...base, SMS_ADAPTER: "twilio" })).toThrow(
      /SMS_ADAPTER must be one of local, aliyun, tencent/,
    );
  });
});
