import { createHash, createHmac, timingSafeEqual } from "node:crypto";

/**
 * The two vendors' request signatures, computed the way their API gateways check them (issue 41): Alibaba
 * Cloud's V3 signature (ACS3-HMAC-SHA256, what @alicloud/dysmsapi20170525 4.x sends) and Tencent Cloud's
 * signature v3 (TC3-HMAC-SHA256). signatures.test.ts checks both against the vendors' published examples.
 */

export const sha256Hex = (data: string | Buffer): string => createHash("sha256").update(data).digest("hex");

/** RFC 3986 percent-encoding as Alibaba Cloud's V3 signature defines it (space %20, * %2A, ~ kept). */
export function acsEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export interface Acs3Input {
  method: string;
  /** The request path, e.g. "/". */
  path: string;
  /** The query parameters, decoded. */
  query: Record<string, string>;
  /** The signed headers with their values (names in any case). */
  headers: Record<string, string>;
  /** Hex SHA-256 of the body (x-acs-content-sha256). */
  payloadHash: string;
  secret: string;
}

/** Alibaba Cloud V3: CanonicalRequest, StringToSign = "ACS3-HMAC-SHA256\n" + hex(sha256(CanonicalRequest)), HMAC-SHA256 hex. */
export function acs3Sign(input: Acs3Input): { canonicalRequest: string; signedHeaders: string; signature: string } {
  const canonicalQuery = Object.keys(input.query)
    .sort()
    .map((k) => `${acsEncode(k)}=${acsEncode(input.query[k] ?? "")}`)
    .join("&");
  const headers = new Map(Object.entries(input.headers).map(([k, v]) => [k.toLowerCase(), v.trim()]));
  const names = [...headers.keys()].sort();
  const canonicalHeaders = names.map((n) => `${n}:${headers.get(n) ?? ""}\n`).join("");
  const signedHeaders = names.join(";");
  const canonicalURI = input.path === "" ? "/" : input.path.split("/").map(acsEncode).join("/");
  const canonicalRequest = [
    input.method.toUpperCase(),
    canonicalURI,
    canonicalQuery,
    canonicalHeaders,
    signedHeaders,
    input.payloadHash,
  ].join("\n");
  const stringToSign = `ACS3-HMAC-SHA256\n${sha256Hex(canonicalRequest)}`;
  const signature = createHmac("sha256", input.secret).update(stringToSign).digest("hex");
  return { canonicalRequest, signedHeaders, signature };
}

/** `ACS3-HMAC-SHA256 Credential=…,SignedHeaders=…,Signature=…` read into its parts, or undefined. */
export function parseAcs3Authorization(
  header: string,
): { accessKeyId: string; signedHeaders: string[]; signature: string } | undefined {
  const m = /^ACS3-HMAC-SHA256\s+Credential=([^,]+),\s*SignedHeaders=([^,]+),\s*Signature=([0-9a-f]+)$/.exec(
    header.trim(),
  );
  if (!m?.[1] || !m[2] || !m[3]) return undefined;
  return { accessKeyId: m[1], signedHeaders: m[2].split(";"), signature: m[3] };
}

export interface Tc3Input {
  method: string;
  path: string;
  /** The raw query string (without "?"): empty for POST. */
  query: string;
  /** The signed headers with their values; names and values go in lower case. */
  headers: Record<string, string>;
  payload: string | Buffer;
  /** X-TC-Timestamp, seconds. */
  timestamp: number;
  service: string;
  secretKey: string;
}

/** The UTC date (yyyy-mm-dd) of a Unix timestamp in seconds: the credential scope's date. */
export function tc3Date(timestamp: number): string {
  return new Date(timestamp * 1000).toISOString().slice(0, 10);
}

/** Tencent Cloud signature v3: CanonicalRequest, StringToSign, a key derived from "TC3" + SecretKey by date, service, tc3_request. */
export function tc3Sign(input: Tc3Input): {
  canonicalRequest: string;
  stringToSign: string;
  signedHeaders: string;
  signature: string;
} {
  const headers = new Map(Object.entries(input.headers).map(([k, v]) => [k.toLowerCase(), v.trim().toLowerCase()]));
  const names = [...headers.keys()].sort();
  const signedHeaders = names.join(";");
  const canonicalRequest = [
    input.method.toUpperCase(),
    input.path,
    input.query,
    names.map((n) => `${n}:${headers.get(n) ?? ""}\n`).join(""),
    signedHeaders,
    sha256Hex(input.payload),
  ].join("\n");
  const date = tc3Date(input.timestamp);
  const scope = `${date}/${input.service}/tc3_request`;
  const stringToSign = ["TC3-HMAC-SHA256", String(input.timestamp), scope, sha256Hex(canonicalRequest)].join("\n");
  const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data).digest();
  const signing = hmac(hmac(hmac(`TC3${input.secretKey}`, date), input.service), "tc3_request");
  const signature = createHmac("sha256", signing).update(stringToSign).digest("hex");
  return { canonicalRequest, stringToSign, signedHeaders, signature };
}

/** `TC3-HMAC-SHA256 Credential=id/date/service/tc3_request, SignedHeaders=…, Signature=…` read, or undefined. */
export function parseTc3Authorization(
  header: string,
): { secretId: string; date: string; service: string; signedHeaders: string[]; signature: string } | undefined {
  const m =
    /^TC3-HMAC-SHA256\s+Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/([^/]+)\/tc3_request,\s*SignedHeaders=([^,]+),\s*Signature=([0-9a-f]+)$/.exec(
      header.trim(),
    );
  if (!m?.[1] || !m[2] || !m[3] || !m[4] || !m[5]) return undefined;
  return { secretId: m[1], date: m[2], service: m[3], signedHeaders: m[4].split(";"), signature: m[5] };
}

/** Constant-time comparison of two hex signatures. */
export function sameSignature(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
