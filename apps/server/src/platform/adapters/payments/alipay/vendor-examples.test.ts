import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../../config";
import { PaymentHandlers, sandboxPaymentsRefusal } from "../index";
import { AlipayAdapter } from "./adapter";
import { fenOf, NOTIFY_EXCLUDES, REQUEST_EXCLUDES, rsa2Sign, rsa2Verify, signContent, yuanOf } from "./signing";

/**
 * Alipay's own examples (issue 41): an async notification Alipay really sent and signed, published with
 * the Alipay public key that verifies it in alipay-sdk's test suite (alipay/alipay-sdk-nodejs-all,
 * test/alipay.test.ts, "verify sign should delete sign_type", MIT). Its sign string is built as Alipay's
 * docs say for notifications: every field but sign and sign_type, sorted by name, key=value joined by &.
 * The local platform signs its notifications with the same construction, and the adapter verifies them
 * through the SDK, so both sides are checked against the vendor here.
 */
const ALIPAY_PUBLIC_KEY = `-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAqObrdC7hrgAVM98tK0nv3hSQRGGKT4lBsQjHiGjeYZjOPIPHR5knm2jnnz/YGIXIofVHkA/tAlBAd5DrY7YpvI4tP5EONLtZKC2ghBMx7McI2wRD0xiqzxOQr1FuhZGJ8/AUokBzJrzY+aGX2xcOrxFYRlFilvVLTXg4LWjR1tdPkO6+i7wQZAIVMClPkwVRZEbaERRHlKqTzv2gGv5rDU8gRoe1LeaN+6BlbTqHWkQcNCUNrA8C6l17XAXGKDsm/9TFWwO8EPHHHCaQdjtV5/FdcWIt+L8SR1ss7EXTjYDFtxcKVv9rEoY1lX8T4mX+GbXfZHraG5NCF1+XioL5JwIDAQAB
-----END PUBLIC KEY-----`;

/** The notification as posted (form fields: fund_bill_list is a JSON string on the wire). */
const NOTICE: Record<string, string> = {
  gmt_create: "2019-08-15 15:56:22",
  charset: "utf-8",
  seller_email: "z97-yuquerevenue@service.aliyun.com",
  subject: "语雀空间 500人规模",
  sign: "QfTb8tqE1BMhS5qAnXtvsF3/jBkEvu9q9en0pdbBUDDjvKycZhQb7h8GDs4FKfi049PynaNuatxSgLb/nLWZpXyyh0LEWdK2S6Ri7nPwrVgOs08zugLO20vOQz44y3ti2Ncm8/wZts1Fr2gZ7pShnVX3d1B50hbsXnObT1r/U8ONNQjWXd0HIul4TG+Q3fm3svmSvFEy0WnzuhcyHPX5Gm4ELNctL6Qd5YniGJFNcc7kopHYtI/XD9YCKCH6Ct02rzUs9i11C9CsadtZn+WhxF26Dqt9sGEFajkJ8cxUTLi8+VCpLHsgPE8P0y095uQcDdK0YjCh4x7wVSov+lrmOQ==",
  buyer_id: "2088102534368455",
  invoice_amount: "0.10",
  notify_id: "2019081500222155624068450559358070",
  fund_bill_list: '[{"amount":"0.10","fundChannel":"ALIPAYACCOUNT"}]',
  notify_type: "trade_status_sync",
  trade_status: "TRADE_SUCCESS",
  receipt_amount: "0.10",
  buyer_pay_amount: "0.10",
  sign_type: "RSA2",
  app_id: "2019073166072302",
  seller_id: "2088531891668739",
  gmt_payment: "2019-08-15 15:56:24",
  notify_time: "2019-08-15 15:56:25",
  version: "1.0",
  out_trade_no: "20190815155618536-564-57",
  total_amount: "0.10",
  trade_no: "2019081522001468450512505578",
  auth_app_id: "2019073166072302",
  buyer_logon_id: "xud***@126.com",
  point_amount: "0.00",
};

/** One key pair for the test: the application's, and where a key other than Alipay's is wanted. */
const APP = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  publicKeyEncoding: { type: "spki", format: "pem" },
  privateKeyEncoding: { type: "pkcs8", format: "pem" },
});

function adapterWith(alipayPublicKey: string): AlipayAdapter {
  return new AlipayAdapter(
    {
      appId: "2019073166072302",
      privateKeyFile: "",
      alipayPublicKeyFile: "",
      gateway: "https://openapi.alipay.com/gateway.do",
      notifyUrl: "https://shop.example.com/api/payments/alipay/notify",
      local: false,
    },
    { appPrivateKey: APP.privateKey, alipayPublicKey },
    new PaymentHandlers(),
    () => undefined,
  );
}

describe("Alipay's documented signatures", () => {
  it("a notification Alipay signed verifies over the documented sign string (sorted, without sign and sign_type)", () => {
    const content = signContent(NOTICE, NOTIFY_EXCLUDES);
    expect(content.startsWith("app_id=2019073166072302&auth_app_id=2019073166072302&buyer_id=")).toBe(true);
    expect(content).not.toMatch(/(^|&)sign(_type)?=/);
    expect(content.endsWith("&trade_status=TRADE_SUCCESS&version=1.0")).toBe(true);
    expect(rsa2Verify(content, NOTICE.sign ?? "", ALIPAY_PUBLIC_KEY)).toBe(true);
    // With sign_type in the string (a request's construction) it does not verify.
    expect(rsa2Verify(signContent(NOTICE, REQUEST_EXCLUDES), NOTICE.sign ?? "", ALIPAY_PUBLIC_KEY)).toBe(false);
  });

  it("the adapter (alipay-sdk's checkNotifySignV2) takes Alipay's notification and refuses it changed or under another key", () => {
    const adapter = adapterWith(ALIPAY_PUBLIC_KEY);
    expect(adapter.sdk.checkNotifySignV2({ ...NOTICE })).toBe(true);
    expect(adapter.sdk.checkNotifySignV2({ ...NOTICE, total_amount: "100.10" })).toBe(false);
    expect(adapterWith(APP.publicKey).sdk.checkNotifySignV2({ ...NOTICE })).toBe(false);
  });

  it("the local platform's construction, signed with a key, is what the SDK verifies with its public half", () => {
    const { sign: _sign, ...fields } = NOTICE;
    const signed = { ...fields, sign: rsa2Sign(signContent(fields, NOTIFY_EXCLUDES), APP.privateKey) };
    expect(adapterWith(APP.publicKey).sdk.checkNotifySignV2(signed)).toBe(true);
  });

  it("amounts: fen to Alipay's yuan strings and back, nothing else taken", () => {
    expect([1, 10, 2000, 123456].map(yuanOf)).toEqual(["0.01", "0.10", "20.00", "1234.56"]);
    expect(["0.10", "20", "20.5", "1234.56"].map(fenOf)).toEqual([10, 2000, 2050, 123456]);
    expect(["", "-1.00", "1.234", "1e3", " 1.00"].map(fenOf)).toEqual([null, null, null, null, null]);
  });
});

describe("Alipay's settings", () => {
  it("each is needed live (the gateway defaults to the vendor's); sandbox without any runs the local platform", () => {
    expect(() => loadConfig({ PAYMENT_ADAPTER: "alipay", ALIPAY_APP_ID: "2021000000000001" })).toThrow(
      "PAYMENT_ADAPTER=alipay needs ALIPAY_PRIVATE_KEY_FILE, ALIPAY_PUBLIC_KEY_FILE, ALIPAY_NOTIFY_URL",
    );
    expect(() => loadConfig({ PAYMENT_ADAPTER: "alipay", TESSERA_MODE: "live" })).toThrow(/needs ALIPAY_APP_ID/);
    const sandbox = loadConfig({ PAYMENT_ADAPTER: "alipay", PORT: "9090", DATA_DIR: "/tmp/x" });
    expect(sandbox.alipay).toMatchObject({
      local: true,
      gateway: "http://127.0.0.1:9090/sandbox/alipay/gateway.do",
      notifyUrl: "http://127.0.0.1:9090/api/payments/alipay/notify",
      privateKeyFile: "/tmp/x/alipay-local/app_private_key.pem",
    });
    const full = {
      TESSERA_MODE: "live",
      PAYMENT_ADAPTER: "wechatpay,alipay",
      WECHATPAY_MCHID: "1900009191",
      WECHATPAY_APPID: "wxd678efh567hg6787",
      WECHATPAY_SERIAL: "1DDE55AD98ED71D6EDD4A4A16996DE7B47773A8C",
      WECHATPAY_PRIVATE_KEY_FILE: "/etc/tessera/apiclient_key.pem",
      WECHATPAY_APIV3_KEY: "0123456789abcdefghijklmnopqrstuv",
      WECHATPAY_PLATFORM_PUBLIC_KEY_FILE: "/etc/tessera/pub_key.pem",
      WECHATPAY_PLATFORM_PUBLIC_KEY_ID: "PUB_KEY_ID_0119000001",
      WECHATPAY_NOTIFY_URL: "https://shop.example.com/api/payments/wechatpay/notify",
      ALIPAY_APP_ID: "2021000000000001",
      ALIPAY_PRIVATE_KEY_FILE: "/etc/tessera/alipay_app_private_key.pem",
      ALIPAY_PUBLIC_KEY_FILE: "/etc/tessera/alipay_public_key.pem",
      ALIPAY_NOTIFY_URL: "https://shop.example.com/api/payments/alipay/notify",
    };
    const live = loadConfig(full);
    expect(live).toMatchObject({ paymentAdapter: "wechatpay", paymentProviders: ["wechatpay", "alipay"] });
    expect(live.alipay).toMatchObject({ local: false, gateway: "https://openapi.alipay.com/gateway.do" });
    expect(sandboxPaymentsRefusal(live)).toBeNull();
    const staging = loadConfig({ ...full, ALIPAY_GATEWAY: "https://openapi-sandbox.dl.alipaydev.com/gateway.do" });
    expect(staging.alipay?.gateway).toBe("https://openapi-sandbox.dl.alipaydev.com/gateway.do");
    const pointedAtLocal = loadConfig({ ...full, ALIPAY_GATEWAY: "http://127.0.0.1:8080/sandbox/alipay/gateway.do" });
    expect(sandboxPaymentsRefusal(pointedAtLocal)).toMatch(/local Alipay platform/);
    expect(() => loadConfig({ PAYMENT_ADAPTER: "alipay,alipay" })).toThrow("PAYMENT_ADAPTER names alipay twice");
    expect(() => loadConfig({ PAYMENT_ADAPTER: "alipay,local" })).toThrow(/PAYMENT_ADAPTER must be one of/);
  });
});
