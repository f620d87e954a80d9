import { describe, expect, it } from "vitest";
import { acs3Sign, parseAcs3Authorization, parseTc3Authorization, sha256Hex, tc3Sign } from "./signatures";

/**
 * The local SMS gateway checks signatures with these functions; here they reproduce the vendors' own
 * published examples, input for input.
 */
describe("vendors' documented signature examples", () => {
  it("Alibaba Cloud V3 (ACS3-HMAC-SHA256): the RunInstances example of 'V3版本请求体&签名机制'", () => {
    // help.aliyun.com "V3版本请求体&签名机制" / "ROA风格请求体&签名机制": POST / on ecs.cn-shanghai.aliyuncs.com,
    // AccessKeyId YourAccessKeyId, AccessKeySecret YourAccessKeySecret, an empty body.
    const header =
      "ACS3-HMAC-SHA256 Credential=YourAccessKeyId,SignedHeaders=host;x-acs-action;x-acs-content-sha256;x-acs-date;x-acs-signature-nonce;x-acs-version,Signature=e521358f7776c97df52e6b2891a8bc73026794a071b50c3323388c4e0df64804";
    const auth = parseAcs3Authorization(header);
    expect(auth?.accessKeyId).toBe("YourAccessKeyId");
    const emptyHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    expect(sha256Hex("")).toBe(emptyHash);
    const signed = acs3Sign({
      method: "POST",
      path: "/",
      query: { ImageId: "win2019_1809_x64_dtc_zh-cn_40G_alibase_20230811.vhd", RegionId: "cn-shanghai" },
      headers: {
        host: "ecs.cn-shanghai.aliyuncs.com",
        "x-acs-action": "RunInstances",
        "x-acs-content-sha256": emptyHash,
        "x-acs-date": "2023-10-26T09:01:01Z",
        "x-acs-signature-nonce": "d410180a5abf7fe235dd9b74aca91fc0",
        "x-acs-version": "2014-05-26",
      },
      payloadHash: emptyHash,
      secret: "YourAccessKeySecret",
    });
    expect(signed.signedHeaders).toBe(auth?.signedHeaders.join(";"));
    expect(signed.signature).toBe(auth?.signature);
    expect(signed.canonicalRequest.split("\n").slice(0, 3)).toEqual([
      "POST",
      "/",
      "ImageId=win2019_1809_x64_dtc_zh-cn_40G_alibase_20230811.vhd&RegionId=cn-shanghai",
    ]);
  });

  it("Tencent Cloud signature v3 (TC3-HMAC-SHA256): the DescribeInstances example of '签名方法 v3'", () => {
    // cloud.tencent.com "签名方法 v3": cvm DescribeInstances, X-TC-Timestamp 1551113065, SecretId
    // AKIDz8krbsJ5yKBZQpn74WFkmLPx3*******, SecretKey Gu5t9xGARNpq86cd98joQYCN3*******.
    const payload = '{"Limit": 1, "Filters": [{"Values": ["\\u672a\\u547d\\u540d"], "Name": "instance-name"}]}';
    const signed = tc3Sign({
      method: "POST",
      path: "/",
      query: "",
      headers: { "content-type": "application/json; charset=utf-8", host: "cvm.tencentcloudapi.com" },
      payload,
      timestamp: 1551113065,
      service: "cvm",
      secretKey: "Gu5t9xGARNpq86cd98joQYCN3*******",
    });
    expect(signed.canonicalRequest).toBe(
      [
        "POST",
        "/",
        "",
        "content-type:application/json; charset=utf-8",
        "host:cvm.tencentcloudapi.com",
        "",
        "content-type;host",
        "35e9c5b0e3ae67532d3c9f17ead6c90222632e5b1ff7f6e89887f1398934f064",
      ].join("\n"),
    );
    expect(signed.stringToSign).toBe(
      [
        "TC3-HMAC-SHA256",
        "1551113065",
        "2019-02-25/cvm/tc3_request",
        "5ffe6a04c0664d6b969fab9a13bdab201d63ee709638e2749d62a09ca18d7031",
      ].join("\n"),
    );
    expect(signed.signature).toBe("2230eefd229f582d8b1b891af7107b91597240707d778ab3738f756258d7652c");
    const auth = parseTc3Authorization(
      `TC3-HMAC-SHA256 Credential=AKIDz8krbsJ5yKBZQpn74WFkmLPx3*******/2019-02-25/cvm/tc3_request, SignedHeaders=content-type;host, Signature=${signed.signature}`,
    );
    expect(auth).toMatchObject({
      secretId: "AKIDz8krbsJ5yKBZQpn74WFkmLPx3*******",
      date: "2019-02-25",
      service: "cvm",
    });
  });
});
