import { createCipheriv, createDecipheriv, generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../../config";
import { sandboxPaymentsRefusal } from "../index";
import {
  decryptResource,
  encryptResource,
  jsapiParams,
  parseAuthorization,
  platformSign,
  requestMessage,
  Rsa,
  verifyPlatformSignature,
} from "./signing";
import { Formatter } from "wechatpay-axios-plugin";

/**
 * WeChat Pay API v3's documented examples (pay.weixin.qq.com: 签名生成 wechatpay4_0, 签名验证 wechatpay4_1,
 * 证书和回调报文解密 wechatpay4_2). The documents publish the strings to sign with their sample values but
 * not the keys behind their sample signatures, so the signatures here are made with keys generated for
 * the test, by the documented algorithm (SHA256 with RSA, Base64; AEAD_AES_256_GCM with the APIv3 key).
 */
const pair = () =>
  generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });

describe("WeChat Pay v3: the vendor's documented examples", () => {
  it("the request's signature string and Authorization header (签名生成, its sample values)", () => {
    // The document's example: GET /v3/global/certificates at 1554208460 with nonce 593BEC0C…, empty body.
    const message = requestMessage(
      "GET",
      "/v3/global/certificates",
      "1554208460",
      "593BEC0C930BF1AFEB40B4A08C8FB242",
      "",
    );
    expect(message).toBe("GET\n/v3/global/certificates\n1554208460\n593BEC0C930BF1AFEB40B4A08C8FB242\n\n");
    const merchant = pair();
    const signature = Rsa.sign(message, Rsa.from(merchant.privateKey, Rsa.KEY_TYPE_PRIVATE));
    const header = Formatter.authorization(
      "1900009191",
      "593BEC0C930BF1AFEB40B4A08C8FB242",
      signature,
      "1554208460",
      "1DDE55AD98ED71D6EDD4A4A16996DE7B47773A8C",
    );
    expect(header.startsWith('WECHATPAY2-SHA256-RSA2048 mchid="1900009191",')).toBe(true);
    // What the local platform reads back and checks with the merchant's public key.
    const fields = parseAuthorization(header);
    expect(fields).toMatchObject({
      mchid: "1900009191",
      nonce_str: "593BEC0C930BF1AFEB40B4A08C8FB242",
      timestamp: "1554208460",
      serial_no: "1DDE55AD98ED71D6EDD4A4A16996DE7B47773A8C",
      signature,
    });
    const pub = Rsa.from(merchant.publicKey, Rsa.KEY_TYPE_PUBLIC);
    expect(Rsa.verify(message, fields?.signature ?? "", pub)).toBe(true);
    expect(Rsa.verify(message.replace("GET", "POST"), fields?.signature ?? "", pub)).toBe(false);
    expect(parseAuthorization("Bearer x")).toBeNull();
  });

  it("the answer's and notification's signature (签名验证: timestamp\\nnonce\\nbody\\n, a 204's body empty)", () => {
    // The document's sample answer: Wechatpay-Timestamp 1554209980, Wechatpay-Nonce c5ac7061….
    expect(Formatter.response("1554209980", "c5ac7061fccab6bf3e254dcf98995b8c", "")).toBe(
      "1554209980\nc5ac7061fccab6bf3e254dcf98995b8c\n\n",
    );
    const platform = pair();
    const key = Rsa.from(platform.privateKey, Rsa.KEY_TYPE_PRIVATE);
    const pub = Rsa.from(platform.publicKey, Rsa.KEY_TYPE_PUBLIC);
    const body = '{"id":"EV-2018022511223320873","event_type":"TRANSACTION.SUCCESS"}';
    const h = platformSign(body, key, "PUB_KEY_ID_0114232134912410000000000000", 1554209980);
    const headers = {
      timestamp: h["Wechatpay-Timestamp"] ?? "",
      nonce: h["Wechatpay-Nonce"] ?? "",
      signature: h["Wechatpay-Signature"] ?? "",
      serial: h["Wechatpay-Serial"] ?? "",
    };
    const id = "PUB_KEY_ID_0114232134912410000000000000";
    expect(verifyPlatformSignature(headers, body, pub, id, 1554209980 + 299)).toBeNull();
    expect(verifyPlatformSignature(headers, body, pub, id, 1554209980 + 301)).toMatch(/replayed or stale/);
    expect(verifyPlatformSignature(headers, body, pub, id, 1554209980 - 301)).toMatch(/replayed or stale/);
    expect(verifyPlatformSignature(headers, `${body} `, pub, id, 1554209980)).toMatch(/does not verify/);
    expect(verifyPlatformSignature(headers, body, pub, "PUB_KEY_ID_OTHER", 1554209980)).toMatch(/unknown/);
    expect(verifyPlatformSignature({ ...headers, signature: "" }, body, pub, id, 1554209980)).toMatch(/missing/);
    const other = Rsa.from(pair().publicKey, Rsa.KEY_TYPE_PUBLIC);
    expect(verifyPlatformSignature(headers, body, other, id, 1554209980)).toMatch(/does not verify/);
  });

  it("the notification's resource (回调报文解密: AEAD_AES_256_GCM, the APIv3 key, nonce and associated_data)", () => {
    const apiv3Key = "0123456789abcdefghijABCDEFGHIJ01"; // 32 bytes, as the APIv3 key must be
    // The payment notification's documented resource (支付通知, JSAPI's sample values).
    const transaction = {
      mchid: "1230000109",
      appid: "wxd678efh567hg6787",
      out_trade_no: "1217752501201407033233368018",
      transaction_id: "1217752501201407033233368018",
      trade_type: "JSAPI",
      trade_state: "SUCCESS",
      trade_state_desc: "支付成功",
      bank_type: "CMC",
      attach: "自定义数据",
      success_time: "2018-06-08T10:34:56+08:00",
      payer: { openid: "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o" },
      amount: { total: 100, payer_total: 100, currency: "CNY", payer_currency: "CNY" },
    };
    const resource = encryptResource(transaction, apiv3Key, "transaction", "transaction");
    expect(resource).toMatchObject({
      original_type: "transaction",
      algorithm: "AEAD_AES_256_GCM",
      associated_data: "transaction",
    });
    expect(resource.nonce).toHaveLength(12);
    // The document's decryption, done independently: key, nonce and associated data as UTF-8 bytes, the
    // ciphertext Base64 with the 16-byte tag at its end.
    const data = Buffer.from(resource.ciphertext, "base64");
    const decipher = createDecipheriv("aes-256-gcm", Buffer.from(apiv3Key), Buffer.from(resource.nonce));
    decipher.setAAD(Buffer.from("transaction")).setAuthTag(data.subarray(data.length - 16));
    const plain = Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString();
    expect(JSON.parse(plain)).toEqual(transaction);
    // And the other way: what the document's encryption makes, the adapter decrypts.
    const cipher = createCipheriv("aes-256-gcm", Buffer.from(apiv3Key), Buffer.from("iKtWOA7GL44Z"));
    cipher.setAAD(Buffer.from("refund"));
    const sealed = Buffer.concat([
      cipher.update(JSON.stringify({ refund_status: "SUCCESS" })),
      cipher.final(),
      cipher.getAuthTag(),
    ]);
    const refund = {
      original_type: "refund",
      algorithm: "AEAD_AES_256_GCM",
      ciphertext: sealed.toString("base64"),
      associated_data: "refund",
      nonce: "iKtWOA7GL44Z",
    };
    expect(decryptResource(refund, apiv3Key)).toEqual({ refund_status: "SUCCESS" });
    expect(() => decryptResource({ ...refund, associated_data: "transaction" }, apiv3Key)).toThrow();
    expect(() => decryptResource(refund, "0123456789abcdefghijABCDEFGHIJ02")).toThrow();
    expect(() => decryptResource({ ...refund, algorithm: "AES_128" }, apiv3Key)).toThrow(/unsupported/);
  });

  it("JSAPI's requestPayment paySign (appId\\ntimeStamp\\nnonceStr\\npackage\\n with the merchant key)", () => {
    const merchant = pair();
    const p = jsapiParams(
      "wx8888888888888888",
      "wx201410272009395522657a690389285100",
      Rsa.from(merchant.privateKey, Rsa.KEY_TYPE_PRIVATE),
      1414561699,
    );
    expect(p).toMatchObject({
      appId: "wx8888888888888888",
      timeStamp: "1414561699",
      package: "prepay_id=wx201410272009395522657a690389285100",
      signType: "RSA",
    });
    const message = `wx8888888888888888\n1414561699\n${p.nonceStr}\nprepay_id=wx201410272009395522657a690389285100\n`;
    expect(Rsa.verify(message, p.paySign, Rsa.from(merchant.publicKey, Rsa.KEY_TYPE_PUBLIC))).toBe(true);
  });

  it("settings: every one named when missing, none in sandbox is the local platform, live refuses it", () => {
    expect(() => loadConfig({ PAYMENT_ADAPTER: "wechatpay", WECHATPAY_MCHID: "1900009191" })).toThrow(
      /PAYMENT_ADAPTER=wechatpay needs WECHATPAY_APPID, WECHATPAY_SERIAL, WECHATPAY_PRIVATE_KEY_FILE, WECHATPAY_APIV3_KEY, WECHATPAY_PLATFORM_PUBLIC_KEY_FILE, WECHATPAY_PLATFORM_PUBLIC_KEY_ID, WECHATPAY_NOTIFY_URL/,
    );
    expect(() => loadConfig({ PAYMENT_ADAPTER: "wechatpay", TESSERA_MODE: "live" })).toThrow(/needs WECHATPAY_MCHID/);
    const sandbox = loadConfig({ PAYMENT_ADAPTER: "wechatpay", PORT: "9090", DATA_DIR: "/tmp/x" });
    expect(sandbox.wechatpay).toMatchObject({
      local: true,
      baseUrl: "http://127.0.0.1:9090/sandbox/wechatpay/",
      notifyUrl: "http://127.0.0.1:9090/api/payments/wechatpay/notify",
      privateKeyFile: "/tmp/x/wechatpay-local/apiclient_key.pem",
    });
    const full = {
      PAYMENT_ADAPTER: "wechatpay",
      TESSERA_MODE: "live",
      WECHATPAY_MCHID: "1900009191",
      WECHATPAY_APPID: "wxd678efh567hg6787",
      WECHATPAY_SERIAL: "1DDE55AD98ED71D6EDD4A4A16996DE7B47773A8C",
      WECHATPAY_PRIVATE_KEY_FILE: "/etc/tessera/apiclient_key.pem",
      WECHATPAY_APIV3_KEY: "0123456789abcdefghijABCDEFGHIJ01",
      WECHATPAY_PLATFORM_PUBLIC_KEY_FILE: "/etc/tessera/pub_key.pem",
      WECHATPAY_PLATFORM_PUBLIC_KEY_ID: "PUB_KEY_ID_0114232134912410000000000000",
      WECHATPAY_NOTIFY_URL: "https://pay.example.com/api/payments/wechatpay/notify",
    };
    const live = loadConfig(full);
    expect(live.wechatpay).toMatchObject({ local: false, baseUrl: "https://api.mch.weixin.qq.com/" });
    expect(sandboxPaymentsRefusal(live)).toBeNull();
    expect(() => loadConfig({ ...full, WECHATPAY_APIV3_KEY: "short" })).toThrow(/32-character/);
    const pointedAtLocal = loadConfig({ ...full, WECHATPAY_BASE_URL: "http://127.0.0.1:8080/sandbox/wechatpay/" });
    expect(sandboxPaymentsRefusal(pointedAtLocal)).toMatch(/local WeChat Pay platform/);
  });
});
