import { existsSync } from "node:fs";
import path from "node:path";
import { CODE } from "@tessera/contracts";
import { describe, expect, it } from "vitest";
import { dock } from "../../../test/docking";
import { lastCode, uniquePhone } from "../../../test/harness";
import { newMerchant } from "../../../test/kit/catalog-fixtures";
import { useTestApp } from "../../../test/kit/use-test-app";
import { fundSup } from "../../../test/money";
import { loadConfig } from "../../config";
import * as repo from "./repo";

/**
 * Issue 41: SMS_ADAPTER=aliyun with ALIYUN_SMS_ENDPOINT=local is sandbox: the real Alibaba Cloud adapter
 * (the vendor's SDK, keys generated into DATA_DIR) against the local SMS gateway, which keeps what it
 * delivers in the dev outbox. An SMS login goes through it end to end; a send the vendor refuses is the
 * user's error and leaves no valid code behind.
 */
const t = useTestApp({ SMS_ADAPTER: "aliyun", ALIYUN_SMS_ENDPOINT: "local" });

const newPhone = () => uniquePhone("13");

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

describe("a gift whose SMS the vendor refuses", () => {
  it("is not made: the card stays free, the request key retries, and then the notice is delivered", async () => {
    const brand = await newMerchant(t, "Gift Brand");
    const product = await t.call<{ id: string }>("POST", "/api/card-brander/onecard/products", {
      token: brand.token,
      body: {
        kind: "face_value",
        name: "Gift card 50",
        faceValue: 5_000,
        salePrice: 5_000,
        named: false,
        validity: { kind: "days", days: 1200 },
        rechargeAllowed: false,
        scope: "",
        terms: "",
      },
    });
    await t.call("POST", "/api/card-brander/onecard/batches", {
      token: brand.token,
      body: { productId: product.body.data.id, count: 1, requestKey: `gift-batch-${Date.now()}` },
    });
    const { buyer } = await dock(t, brand);
    await fundSup(t, buyer, 10_000);
    const sale = await t.call<{ id: string }>("POST", "/api/card-user/onecard/purchase", {
      token: buyer.token,
      body: { productId: product.body.data.id, quantity: 1, requestKey: `gift-buy-${Date.now()}` },
    });
    await t.call("POST", "/api/card-user/onecard/activate", {
      token: buyer.token,
      body: { saleId: sale.body.data.id, requestKey: `gift-act-${Date.now()}` },
    });
    const cards = await t.call<{ list: { id: string; state: string }[] }>("GET", "/api/card-user/onecard/cards", {
      token: buyer.token,
    });
    const cardIds = cards.body.data.list.map((c) => c.id);
    expect(cards.body.data.list.map((c) => c.state)).toEqual(["activated"]);
    const requestKey = `gift-${Date.now()}`;

    const refused = await t.call("POST", "/api/card-user/onecard/gifts", {
      token: buyer.token,
      body: { cardIds, phone: "10012345678", requestKey },
      lang: "en",
    });
    expect(refused.body).toMatchObject({
      code: CODE.SEND_FAILED,
      msg: "The text message could not be sent. Please try again later",
    });
    const none = await t.call<{ total: number }>("GET", "/api/card-user/onecard/gifts", { token: buyer.token });
    expect(none.body.data.total).toBe(0);

    const phone = newPhone();
    const given = await t.call<{ state: string }>("POST", "/api/card-user/onecard/gifts", {
      token: buyer.token,
      body: { cardIds, phone, requestKey },
    });
    expect(given.body.data.state).toBe("sent");
    const outbox = await t.call<{ list: { body: string }[] }>("GET", `/api/dev/outbox?to=${phone}`);
    const [sms] = outbox.body.data.list.map((m) => m.body);
    // The SMS carries the gift's claim link (issue 40, item 3), whose landing names the sender before any login.
    expect(sms).toMatch(
      /^【Tessera】Buyer Ltd送您1张礼品卡，点击领取：http:\/\/localhost:\d+\/client\/claim\?token=\S+ （请用本手机号登录）$/,
    );
    const token = decodeURIComponent(/token=(\S+)/.exec(sms ?? "")?.[1] ?? "");
    const landing = await t.call<{ from: string; count: number; state: string }>(
      "GET",
      `/api/card-public/onecard/gifts/preview?token=${encodeURIComponent(token)}`,
    );
    expect(landing.body.data).toMatchObject({ from: "Buyer Ltd", count: 1, state: "open" });
    const forged = await t.call(
      "GET",
      `/api/card-public/onecard/gifts/preview?token=${token.split(".")[0] ?? ""}.forged`,
    );
    expect(forged.status).toBe(404);
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
