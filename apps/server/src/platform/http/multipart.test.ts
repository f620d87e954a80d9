import { existsSync } from "node:fs";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerErrorHandler } from "./error-handler";
import { registerLang } from "./lang";
import { acceptMultipart, readMultipart, saveMultipart } from "./multipart";

/**
 * The upload reader on @fastify/multipart: parts stream to temporary files that are gone once the reply
 * is sent; the back-office replies of the hand-written reader are kept (400 "Invalid parameter: file" for
 * a malformed or non-multipart body, the 413 envelope over the limit); the plugin's JSON routes and other
 * plugins are untouched.
 */
const LIMIT = 1024;
let app: FastifyInstance;
let savedPaths: string[] = [];

function form(
  parts: { name: string; filename?: string; type?: string; data: Buffer | string }[],
  boundary = "----t3st",
): { payload: Buffer; headers: Record<string, string> } {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ""}`;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ""}\r\n`,
      ),
      Buffer.from(p.data),
      Buffer.from("\r\n"),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

beforeAll(async () => {
  app = Fastify();
  registerLang(app);
  registerErrorHandler(app);
  await app.register(
    async (uploads) => {
      await acceptMultipart(uploads, LIMIT);
      uploads.post("/upload", async (req) => {
        const body = await readMultipart(req);
        return {
          fields: body.fields,
          files: body.files.map((f) => ({
            field: f.field,
            filename: f.filename,
            contentType: f.contentType,
            text: f.data.toString(),
          })),
        };
      });
      uploads.post("/saved", async (req) => {
        const saved = await saveMultipart(req);
        savedPaths = saved.files.map((f) => f.path);
        return { onDisk: saved.files.map((f) => existsSync(f.path)), sizes: saved.files.map((f) => f.size) };
      });
      uploads.post("/json", (req) => Promise.resolve({ echo: req.body }));
    },
    { prefix: "/a" },
  );
  await app.register(
    (other, _opts, done) => {
      other.post("/json", (req) => Promise.resolve({ echo: req.body }));
      done();
    },
    { prefix: "/b" },
  );
  await app.ready();
});
afterAll(async () => {
  await app.close();
});

describe("multipart uploads", () => {
  it("reads text fields and file parts (with their names and types)", async () => {
    const body = form([
      { name: "kind", data: "license" },
      { name: "file", filename: "a.txt", type: "text/plain", data: "hello" },
      { name: "note", data: "ünïcode" },
    ]);
    const res = await app.inject({ method: "POST", url: "/a/upload", ...body });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      fields: { kind: "license", note: "ünïcode" },
      files: [{ field: "file", filename: "a.txt", contentType: "text/plain", text: "hello" }],
    });
  });

  it("streams file parts to temporary files that are removed once the reply is sent", async () => {
    const body = form([
      { name: "file", filename: "a.bin", data: Buffer.alloc(700, 1) },
      { name: "other", filename: "b.bin", data: Buffer.alloc(3, 2) },
    ]);
    const res = await app.inject({ method: "POST", url: "/a/saved", ...body });
    expect(res.json()).toEqual({ onDisk: [true, true], sizes: [700, 3] });
    expect(savedPaths).toHaveLength(2);
    await expect.poll(() => savedPaths.map((p) => existsSync(p))).toEqual([false, false]);
  });

  it("an empty file part is read as zero bytes (the route decides)", async () => {
    const res = await app.inject({
      method: "POST",
      url: "/a/upload",
      ...form([{ name: "file", filename: "e.png", type: "image/png", data: "" }]),
    });
    expect(res.json<{ files: { text: string }[] }>().files).toEqual([expect.objectContaining({ text: "" })]);
  });

  it("a file over the limit is cut off with the 413 envelope", async () => {
    const res = await app.inject({
      method: "POST",
      url: "/a/upload",
      headers: { ...form([]).headers, lang: "en" },
      payload: form([{ name: "file", filename: "big.bin", data: Buffer.alloc(LIMIT + 1) }]).payload,
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({
      code: 1001,
      data: null,
      msg: expect.stringContaining("Invalid parameter: body") as string,
    });
  });

  it("a malformed or non-multipart body is 400 'Invalid parameter: file'", async () => {
    const truncated = form([{ name: "file", filename: "a.txt", data: "hello" }]).payload.subarray(0, 60);
    const cases = [
      { headers: { "content-type": "multipart/form-data; boundary=----t3st", lang: "en" }, payload: truncated },
      { headers: { "content-type": "multipart/form-data", lang: "en" }, payload: "no boundary" },
      { headers: { "content-type": "application/json", lang: "en" }, payload: JSON.stringify({ file: "x" }) },
    ];
    for (const c of cases) {
      const res = await app.inject({ method: "POST", url: "/a/upload", ...c });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ code: 1001, data: { field: "file" }, msg: "Invalid parameter: file" });
    }
  });

  it("JSON routes of the same plugin and of other plugins keep their parser; other plugins take no multipart", async () => {
    expect((await app.inject({ method: "POST", url: "/a/json", payload: { x: 1 } })).json()).toEqual({
      echo: { x: 1 },
    });
    expect((await app.inject({ method: "POST", url: "/b/json", payload: { y: 2 } })).json()).toEqual({
      echo: { y: 2 },
    });
    const res = await app.inject({
      method: "POST",
      url: "/b/json",
      ...form([{ name: "file", filename: "a.txt", data: "x" }]),
    });
    expect(res.statusCode).toBe(415);
  });
});
