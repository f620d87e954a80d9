import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createS3Storage, signV4 } from "./s3";

describe("AWS Signature Version 4", () => {
  it("signs AWS's published GET Object example to its published signature", () => {
    const authorization = signV4({
      method: "GET",
      path: "/test.txt",
      headers: {
        Host: "examplebucket.s3.amazonaws.com",
        Range: "bytes=0-9",
        "x-amz-content-sha256": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "x-amz-date": "20130524T000000Z",
      },
      region: "us-east-1",
      accessKeyId: "AKIAIOSFODNN7EXAMPLE",
      secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
      amzDate: "20130524T000000Z",
    });
    expect(authorization).toBe(
      "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41",
    );
  });
});

/**
 * The adapter against an HTTP server speaking the parts of the S3 protocol it uses: every request
 * must carry a signature that the server recomputes from what it received (so path encoding, header
 * canonicalisation and payload hashes are what S3 would check), objects are kept in memory.
 */
describe("S3 storage adapter", () => {
  const objects = new Map<string, Buffer>();
  const seen: { method: string; url: string }[] = [];
  let server: Server;
  let endpoint = "";
  const creds = { region: "eu-west-1", accessKeyId: "AKIDTEST", secretAccessKey: "secret/Key+1" };

  const body = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      void (async () => {
        const data = await body(req);
        const url = req.url ?? "";
        seen.push({ method: req.method ?? "", url });
        const auth = req.headers.authorization ?? "";
        const signed = /SignedHeaders=([^,]+)/.exec(auth)?.[1]?.split(";") ?? [];
        const headers = Object.fromEntries(signed.map((h) => [h, String(req.headers[h] ?? "")]));
        const expected = signV4({
          method: req.method ?? "",
          path: url,
          headers,
          ...creds,
          amzDate: String(req.headers["x-amz-date"]),
        });
        const payload = String(req.headers["x-amz-content-sha256"]);
        const payloadOk = payload === "UNSIGNED-PAYLOAD" || payload === createHash("sha256").update(data).digest("hex");
        if (auth !== expected || !payloadOk || !signed.includes("host")) {
          res.writeHead(403).end("<Error><Code>SignatureDoesNotMatch</Code></Error>");
          return;
        }
        const key = decodeURIComponent(url);
        if (req.method === "PUT") {
          objects.set(key, data);
          res.writeHead(200).end();
        } else if (req.method === "DELETE") {
          objects.delete(key);
          res.writeHead(204).end();
        } else {
          const obj = objects.get(key);
          if (!obj) return void res.writeHead(404).end("<Error><Code>NoSuchKey</Code></Error>");
          const m = /^bytes=(\d+)-(\d+)$/.exec(String(req.headers.range ?? ""));
          if (m) {
            const [start, end] = [Number(m[1]), Number(m[2])];
            res
              .writeHead(206, {
                "content-range": `bytes ${start}-${end}/${obj.length}`,
                "content-length": String(end - start + 1),
              })
              .end(obj.subarray(start, end + 1));
          } else res.writeHead(200, { "content-length": String(obj.length) }).end(obj);
        }
      })();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
  });

  it("puts, reads, reads a range, moves a local file in, deletes; a missing key is null", async () => {
    const s3 = createS3Storage({ endpoint, bucket: "media", prefix: "tessera/", ...creds });
    await s3.put("videos/a_b.txt", Buffer.from("hello object store"));
    expect(seen.at(-1)).toEqual({ method: "PUT", url: "/media/tessera/videos/a_b.txt" });
    expect((await s3.get("videos/a_b.txt"))?.toString()).toBe("hello object store");
    const part = await s3.open("videos/a_b.txt", { start: 6, end: 11 });
    const chunks: Buffer[] = [];
    for await (const c of part?.stream ?? []) chunks.push(c as Buffer);
    expect({ text: Buffer.concat(chunks).toString(), size: part?.size }).toEqual({ text: "object", size: 18 });

    const dir = mkdtempSync(path.join(tmpdir(), "s3-test-"));
    const local = path.join(dir, "upload.bin");
    writeFileSync(local, Buffer.alloc(300_000, 7));
    await s3.putFile("videos/big.bin", local);
    expect(existsSync(local)).toBe(false);
    expect((await s3.get("videos/big.bin"))?.length).toBe(300_000);

    await s3.delete("videos/a_b.txt");
    expect(await s3.get("videos/a_b.txt")).toBeNull();
    expect(await s3.open("videos/a_b.txt")).toBeNull();
  });

  it("a refused request is an error naming the store's code; bad keys never leave the process", async () => {
    const wrong = createS3Storage({ endpoint, bucket: "media", ...creds, secretAccessKey: "not-it" });
    await expect(wrong.put("k.txt", Buffer.from("x"))).rejects.toThrow(/403 SignatureDoesNotMatch/);
    const s3 = createS3Storage({ endpoint, bucket: "media", ...creds });
    const before = seen.length;
    await expect(s3.put("../escape", Buffer.from("x"))).rejects.toThrow(/invalid storage key/);
    expect(seen.length).toBe(before);
  });
});
