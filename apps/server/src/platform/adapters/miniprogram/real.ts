/**
 * The real platform adapters (MP_ADAPTER=http): HTTP to the documented open APIs, one file per platform
 * (wechat.adapter.ts, douyin.adapter.ts) on the shared HTTP call (real.http.ts), with WeChat's push
 * signature and encryption (real.crypto.ts). Tested against recorded examples (real.test.ts).
 */
export { type Fetch, type HttpAdapterOptions } from "./real.http";
export { WechatHttpAdapter } from "./real.wechat";
export { DouyinHttpAdapter } from "./real.douyin";
export { decryptPush, encryptPush, msgSignature } from "./real.crypto";
