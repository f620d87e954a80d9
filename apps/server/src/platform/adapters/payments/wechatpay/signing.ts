import type { KeyObject } from "node:crypto";
import { Aes, Formatter, Rsa } from "wechatpay-axios-plugin";

/**
 * WeChat Pay API v3's signatures and encryption (pay.weixin.qq.com, "签名生成", "签名验证", "回调报文解密"),
 * through wechatpay-axios-plugin's helpers, shared by the adapter (verifying notifications) and the local
 * platform (signing its answers and notifications exactly as the vendor does).
 */

/** How far a notification's or answer's Wechatpay-Timestamp may be from our clock (the vendor's 5 minutes). */
export const MAX_CLOCK_SKEW_SECONDS = 300;

export interface SignedHeaders {
  timestamp: string;
  nonce: string;
  signature: string;
  serial: string;
}

/** The Wechatpay-* headers of a message the platform signs: timestamp\nnonce\nbody\n with its private key. */
export function platformSign(body: string, key: KeyObject, serial: string, nowSec: number): Record<string, string> {
  const nonce = Formatter.nonce();
  const timestamp = String(nowSec);
  return {
    "Wechatpay-Timestamp": timestamp,
    "Wechatpay-Nonce": nonce,
    "Wechatpay-Serial": serial,
    "Wechatpay-Signature": Rsa.sign(Formatter.response(timestamp, nonce, body), key),
    "Wechatpay-Signature-Type": "WECHATPAY2-SHA256-RSA2048",
  };
}

/**
 * Why a message said to come from the platform must be refused, or null when its signature is the
 * platform's over `timestamp\nnonce\nbody\n`, made with the public key we know, within 5 minutes of now.
 */
export function verifyPlatformSignature(
  h: Partial<SignedHeaders>,
  body: string,
  publicKey: KeyObject,
  publicKeyId: string,
  nowSec: number,
): string | null {
  if (!h.timestamp || !h.nonce || !h.signature || !h.serial) return "missing Wechatpay-* headers";
  if (!/^\d{1,12}$/.test(h.timestamp)) return "bad Wechatpay-Timestamp";
  if (Math.abs(nowSec - Number(h.timestamp)) > MAX_CLOCK_SKEW_SECONDS) {
    return `Wechatpay-Timestamp ${h.timestamp} more than ${MAX_CLOCK_SKEW_SECONDS}s from now (${nowSec}): replayed or stale`;
  }
  if (h.serial !== publicKeyId) return `unknown Wechatpay-Serial ${h.serial}`;
  let ok: boolean;
  try {
    ok = Rsa.verify(Formatter.response(h.timestamp, h.nonce, body), h.signature, publicKey);
  } catch {
    ok = false;
  }
  return ok ? null : "signature does not verify with the platform public key";
}

/** A notification's encrypted `resource` (AEAD_AES_256_GCM with the APIv3 key). */
export interface NotificationResource {
  algorithm: string;
  ciphertext: string;
  associated_data?: string;
  nonce: string;
  original_type?: string;
}

export function decryptResource(r: NotificationResource, apiv3Key: string): unknown {
  if (r.algorithm !== "AEAD_AES_256_GCM") throw new Error(`unsupported algorithm ${r.algorithm}`);
  return JSON.parse(Aes.AesGcm.decrypt(r.ciphertext, apiv3Key, r.nonce, r.associated_data ?? ""));
}

export function encryptResource(
  plain: unknown,
  apiv3Key: string,
  associatedData: string,
  originalType: string,
): NotificationResource {
  const nonce = Formatter.nonce(12);
  return {
    original_type: originalType,
    algorithm: "AEAD_AES_256_GCM",
    ciphertext: Aes.AesGcm.encrypt(JSON.stringify(plain), apiv3Key, nonce, associatedData),
    associated_data: associatedData,
    nonce,
  };
}

/** The merchant's request signature: METHOD\nURL\ntimestamp\nnonce\nbody\n (what the Authorization header carries). */
export function requestMessage(method: string, uri: string, timestamp: string, nonce: string, body: string): string {
  return Formatter.request(method, uri, timestamp, nonce, body);
}

/** The Authorization header's fields, or null when it is not WECHATPAY2-SHA256-RSA2048. */
export function parseAuthorization(header: string | undefined): Record<string, string> | null {
  const m = /^WECHATPAY2-SHA256-RSA2048\s+(.+)$/.exec(header ?? "");
  if (!m?.[1]) return null;
  const fields: Record<string, string> = {};
  for (const part of m[1].matchAll(/(\w+)="([^"]*)"/g)) {
    if (part[1] !== undefined && part[2] !== undefined) fields[part[1]] = part[2];
  }
  return fields;
}

/** JSAPI's requestPayment parameters: paySign = RSA over appId\ntimeStamp\nnonceStr\npackage\n with the merchant key. */
export function jsapiParams(appId: string, prepayId: string, merchantKey: KeyObject, nowSec: number) {
  const timeStamp = String(nowSec);
  const nonceStr = Formatter.nonce();
  const pkg = `prepay_id=${prepayId}`;
  return {
    appId,
    timeStamp,
    nonceStr,
    package: pkg,
    signType: "RSA" as const,
    paySign: Rsa.sign(Formatter.joinedByLineFeed(appId, timeStamp, nonceStr, pkg), merchantKey),
  };
}

export { Rsa };
