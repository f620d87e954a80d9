import { createHash, createHmac } from "node:crypto";
import { createReadStream } from "node:fs";
import { rm, stat } from "node:fs/promises";
import { Readable } from "node:stream";
import { checkKey, type FileStorage } from "./index";

/**
 * Files in an S3-compatible object store (AWS S3, MinIO, Ceph, R2 ...), addressed path-style
 * (`{endpoint}/{bucket}/{key}`) and signed with AWS Signature Version 4. Plain fetch: no SDK.
 */
export interface S3Options {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Prepended to every key, e.g. "tessera/". */
  prefix?: string;
  /** For tests: the clock that stamps requests. */
  now?: () => Date;
}

const EMPTY_SHA256 = createHash("sha256").update("").digest("hex");
const UNSIGNED = "UNSIGNED-PAYLOAD";

/** RFC 3986 encoding of one path segment, as SigV4 canonical URIs want it. */
function encodeSegment(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

const hmac = (key: Buffer | string, data: string) => createHmac("sha256", key).update(data, "utf8").digest();
const sha256hex = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");

export interface SignInput {
  method: string;
  /** The canonical (already encoded) path. */
  path: string;
  /** Header names as given; host, x-amz-date and x-amz-content-sha256 must be among them. */
  headers: Record<string, string>;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** YYYYMMDD'T'HHMMSS'Z' */
  amzDate: string;
}

/** The Authorization header of a request (AWS Signature Version 4, service s3, no query string). */
export function signV4(r: SignInput): string {
  const names = Object.keys(r.headers)
    .map((h) => h.toLowerCase())
    .sort();
  const lower = Object.fromEntries(
    Object.entries(r.headers).map(([k, v]) => [k.toLowerCase(), v.trim().replace(/\s+/g, " ")]),
  );
  const signedHeaders = names.join(";");
  const canonical = [
    r.method,
    r.path,
    "",
    ...names.map((n) => `${n}:${lower[n]}`),
    "",
    signedHeaders,
    lower["x-amz-content-sha256"] ?? UNSIGNED,
  ].join("\n");
  const day = r.amzDate.slice(0, 8);
  const scope = `${day}/${r.region}/s3/aws4_request`;
  const toSign = ["AWS4-HMAC-SHA256", r.amzDate, scope, sha256hex(canonical)].join("\n");
  const key = hmac(hmac(hmac(hmac(`AWS4${r.secretAccessKey}`, day), r.region), "s3"), "aws4_request");
  const signature = createHmac("sha256", key).update(toSign, "utf8").digest("hex");
  return `AWS4-HMAC-SHA256 Credential=${r.accessKeyId}/${scope},SignedHeaders=${signedHeaders},Signature=${signature}`;
}

export function createS3Storage(o: S3Options): FileStorage {
  const base = new URL(o.endpoint.replace(/\/+$/, ""));
  const now = o.now ?? (() => new Date());
  const pathOf = (key: string) =>
    `${base.pathname.replace(/\/+$/, "")}/${encodeSegment(o.bucket)}/${`${o.prefix ?? ""}${checkKey(key)}`.split("/").map(encodeSegment).join("/")}`;

  async function request(
    method: string,
    key: string,
    init: { body?: Buffer | Readable; payloadHash?: string; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    const path = pathOf(key);
    const amzDate = now()
      .toISOString()
      .replace(/[-:]/g, "")
      .replace(/\.\d{3}/, "");
    const headers: Record<string, string> = {
      host: base.host,
      "x-amz-date": amzDate,
      "x-amz-content-sha256": init.payloadHash ?? (Buffer.isBuffer(init.body) ? sha256hex(init.body) : EMPTY_SHA256),
      ...init.headers,
    };
    const authorization = signV4({
      method,
      path,
      headers,
      region: o.region,
      accessKeyId: o.accessKeyId,
      secretAccessKey: o.secretAccessKey,
      amzDate,
    });
    const { host: _host, ...sent } = headers;
    const body = init.body instanceof Readable ? Readable.toWeb(init.body) : init.body;
    // Built untyped: this file is also compiled with the DOM's fetch types (the SDK's tests import the
    // server), where a Buffer or Node's web stream is not a BodyInit although Node's fetch takes both.
    const requestInit: Record<string, unknown> = {
      method,
      headers: { ...sent, authorization },
      ...(body !== undefined && { body, duplex: "half" }),
    };
    return fetch(`${base.origin}${path}`, requestInit);
  }

  async function failed(res: Response, what: string): Promise<Error> {
    const text = await res.text().catch(() => "");
    return new Error(
      `object store: ${what} answered ${res.status} ${/<Code>([^<]+)<\/Code>/.exec(text)?.[1] ?? text.slice(0, 200)}`,
    );
  }

  return {
    kind: "s3",
    async put(key, data) {
      const res = await request("PUT", key, { body: data, headers: { "content-length": String(data.length) } });
      if (!res.ok) throw await failed(res, `PUT ${key}`);
      await res.arrayBuffer();
    },
    async get(key) {
      const res = await request("GET", key);
      if (res.status === 404) return null;
      if (!res.ok) throw await failed(res, `GET ${key}`);
      return Buffer.from(await res.arrayBuffer());
    },
    async open(key, range) {
      const res = await request("GET", key, range ? { headers: { range: `bytes=${range.start}-${range.end}` } } : {});
      if (res.status === 404) {
        await res.arrayBuffer();
        return null;
      }
      if (!res.ok || !res.body) throw await failed(res, `GET ${key}`);
      // The whole object's size: from Content-Range on a partial reply, else the length.
      const total =
        /\/(\d+)$/.exec(res.headers.get("content-range") ?? "")?.[1] ?? res.headers.get("content-length") ?? "0";
      const web: unknown = res.body;
      return { stream: Readable.fromWeb(web as Parameters<typeof Readable.fromWeb>[0]), size: Number(total) };
    },
    async putFile(key, sourcePath) {
      // Streamed from disk unsigned (the payload is covered by TLS and the content length).
      const { size } = await stat(sourcePath);
      const res = await request("PUT", key, {
        body: createReadStream(sourcePath),
        payloadHash: UNSIGNED,
        headers: { "content-length": String(size) },
      });
      if (!res.ok) throw await failed(res, `PUT ${key}`);
      await res.arrayBuffer();
      await rm(sourcePath, { force: true });
    },
    async delete(key) {
      const res = await request("DELETE", key);
      if (!res.ok && res.status !== 404) throw await failed(res, `DELETE ${key}`);
      await res.arrayBuffer();
    },
  };
}
