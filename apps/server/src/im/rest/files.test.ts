import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipart, startImTest, TEST_IMAGES, type ImTest } from "../../../test/im-harness";
import { imageInfo } from "../../platform/images";

let im: ImTest;
beforeAll(async () => {
  im = await startImTest({ IM_FILE_MAX_BYTES: "4096" });
});
afterAll(async () => {
  await im.close();
});

interface Upload {
  uri: string;
  entities: { uuid: string; type: string; "share-secret": string; "file-metadata": Record<string, unknown> }[];
}

describe("chatfiles", () => {
  it("uploads an attachment and serves it only with its share secret", async () => {
    const a = await im.user("f");
    const body = multipart({ filename: "hello.txt", contentType: "text/plain", data: Buffer.from("hello file") });
    const up = await im.call<Upload>("POST", "chatfiles?chat-type=CHAT&chat-target=bob", {
      token: a.token,
      payload: body.payload,
      headers: { ...body.headers, "restrict-access": "true" },
    });
    expect(up.status).toBe(200);
    expect(up.body.uri).toMatch(/\/chatfiles$/);
    const e = up.body.entities[0]!;
    // The uploader's text/plain is not kept: plain text is not on the inline allowlist.
    expect(e).toMatchObject({
      type: "chatfile",
      "file-metadata": { "content-type": "application/octet-stream", "content-length": 10 },
    });
    expect(e["share-secret"].length).toBeGreaterThan(10);

    const denied = await im.call("GET", `chatfiles/${e.uuid}`);
    expect(denied.status).toBe(403);
    expect(denied.body.error_description).toBe("chatfile no permission");
    const wrong = await im.call("GET", `chatfiles/${e.uuid}`, { headers: { "share-secret": "guess" } });
    expect(wrong.status).toBe(403);
    const byHeader = await im.call("GET", `chatfiles/${e.uuid}`, {
      headers: { "share-secret": e["share-secret"], "x-requested-with": "XMLHttpRequest" },
    });
    expect(byHeader.status).toBe(200);
    expect(byHeader.raw.toString()).toBe("hello file");
    expect(byHeader.headers["content-type"]).toBe("application/octet-stream");
    expect(byHeader.headers["content-disposition"]).toBe("attachment; filename*=UTF-8''hello.txt");
    const byQuery = await im.call("GET", `chatfiles/${e.uuid}?em-redirect=true&share-secret=${e["share-secret"]}`);
    expect(byQuery.raw.toString()).toBe("hello file");
    const unknown = await im.call("GET", "chatfiles/00000000-0000-4000-8000-000000000000");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe("resource_not_found");
  });

  it("types a file from its bytes: HTML and SVG download under a sandbox, never run; a PNG shows inline", async () => {
    const a = await im.user("f");
    const upload = async (filename: string, contentType: string, data: Buffer) => {
      const body = multipart({ filename, contentType, data });
      const up = await im.call<Upload>("POST", "chatfiles", {
        token: a.token,
        payload: body.payload,
        headers: body.headers,
      });
      expect(up.status).toBe(200);
      const e = up.body.entities[0]!;
      return {
        meta: e["file-metadata"],
        got: await im.call("GET", `chatfiles/${e.uuid}?share-secret=${e["share-secret"]}`),
      };
    };
    const html = await upload(
      "x.html",
      "text/html",
      Buffer.from("<!doctype html><script>window.__pwned = localStorage.getItem('x-auth-token')</script>"),
    );
    const svg = await upload(
      "x.svg",
      "image/svg+xml",
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>window.__pwned = 1</script></svg>'),
    );
    // A script named as an image: the claim is not believed either.
    const js = await upload("x.png", "image/png", Buffer.from("window.__pwned = 1;"));
    for (const { meta, got } of [html, svg, js]) {
      expect(meta["content-type"]).toBe("application/octet-stream");
      expect(got.status).toBe(200);
      expect(got.headers["content-type"]).toBe("application/octet-stream");
      expect(String(got.headers["content-disposition"])).toMatch(/^attachment; /);
      expect(got.headers["x-content-type-options"]).toBe("nosniff");
      expect(got.headers["content-security-policy"]).toBe("default-src 'none'; sandbox");
    }
    expect(svg.got.headers["content-type"]).not.toContain("svg");

    const png = await upload("p.bin", "application/octet-stream", TEST_IMAGES.png);
    expect(png.meta["content-type"]).toBe("image/png");
    expect(png.got.headers["content-type"]).toBe("image/png");
    expect(png.got.headers["content-disposition"]).toBe("inline; filename*=UTF-8''p.bin");
    expect(png.got.headers["x-content-type-options"]).toBe("nosniff");
    expect(png.got.headers["content-security-policy"]).toBe("default-src 'none'; sandbox");
    expect(png.got.raw.equals(TEST_IMAGES.png)).toBe(true);
  });

  it("serves a row stored before types were sniffed as a download", async () => {
    const a = await im.user("f");
    const body = multipart({
      filename: "old.html",
      contentType: "text/html",
      data: Buffer.from("<script>window.__pwned = 1</script>"),
    });
    const up = await im.call<Upload>("POST", "chatfiles", {
      token: a.token,
      payload: body.payload,
      headers: body.headers,
    });
    const e = up.body.entities[0]!;
    // As an upload before this change left it: the uploader's type in the row.
    await im.t.ctx.database.db
      .updateTable("im_files")
      .set({ content_type: "text/html" })
      .where("uuid", "=", e.uuid)
      .execute();
    const got = await im.call("GET", `chatfiles/${e.uuid}?share-secret=${e["share-secret"]}`);
    expect(got.headers["content-type"]).toBe("application/octet-stream");
    expect(String(got.headers["content-disposition"])).toMatch(/^attachment; /);
    expect(got.headers["content-security-policy"]).toBe("default-src 'none'; sandbox");
  });

  it("keeps image dimensions and serves thumbnails of the asked size", async () => {
    const a = await im.user("f");
    for (const [name, data, type] of [
      ["p.png", TEST_IMAGES.png, "image/png"],
      ["p.jpg", TEST_IMAGES.jpg, "image/jpeg"],
    ] as const) {
      const body = multipart(
        { filename: name, contentType: type, data },
        { "thumbnail-width": "8", "thumbnail-height": "8" },
      );
      const up = await im.call<Upload>("POST", "chatfiles", {
        token: a.token,
        payload: body.payload,
        headers: body.headers,
      });
      const e = up.body.entities[0]!;
      expect(e["file-metadata"]).toMatchObject({ width: 16, height: 16 });
      const thumb = await im.call(
        "GET",
        `chatfiles/${e.uuid}?em-redirect=true&share-secret=${e["share-secret"]}&thumbnail=true&thumbnail-width=8&thumbnail-height=8`,
      );
      expect(thumb.status).toBe(200);
      expect(thumb.headers["content-type"]).toBe("image/webp");
      expect(await imageInfo(thumb.raw)).toEqual({ width: 8, height: 8, format: "webp" });
      const again = await im.call(
        "GET",
        `chatfiles/${e.uuid}?share-secret=${e["share-secret"]}&thumbnail=true&thumbnail-width=8&thumbnail-height=8`,
      );
      expect(again.raw.equals(thumb.raw)).toBe(true);
    }
  });

  it("serves WebP copies of a restricted image without the secret (the chat SDK 5's <img> URLs: size=small|large, the bare URL the large one); the original bytes and other files keep it", async () => {
    const a = await im.user("f");
    const body = multipart({ filename: "p.png", contentType: "image/png", data: TEST_IMAGES.png });
    const up = await im.call<Upload>("POST", "chatfiles", {
      token: a.token,
      payload: body.payload,
      headers: { ...body.headers, "restrict-access": "true" },
    });
    const e = up.body.entities[0]!;
    for (const size of ["small", "large"]) {
      const first = await im.call("GET", `chatfiles/${e.uuid}?size=${size}`);
      expect(first.status).toBe(200);
      expect(first.headers["content-type"]).toBe("image/webp");
      expect(await imageInfo(first.raw)).toEqual({ width: 16, height: 16, format: "webp" });
      // Made once and kept beside the file.
      expect((await im.call("GET", `chatfiles/${e.uuid}?size=${size}`)).raw.equals(first.raw)).toBe(true);
    }
    // The original URL without the secret gets the large copy, never the uploaded bytes.
    for (const path of [`chatfiles/${e.uuid}`, `chatfiles/${e.uuid}?size=origin`]) {
      const bare = await im.call("GET", path);
      expect(bare.status).toBe(200);
      expect(bare.headers["content-type"]).toBe("image/webp");
      expect(bare.raw.equals(TEST_IMAGES.png)).toBe(false);
    }
    const original = await im.call("GET", `chatfiles/${e.uuid}`, { headers: { "share-secret": e["share-secret"] } });
    expect(original.raw.equals(TEST_IMAGES.png)).toBe(true);
    const doc = multipart({ filename: "d.txt", contentType: "text/plain", data: Buffer.from("private") });
    const upDoc = await im.call<Upload>("POST", "chatfiles", {
      token: a.token,
      payload: doc.payload,
      headers: { ...doc.headers, "restrict-access": "true" },
    });
    expect((await im.call("GET", `chatfiles/${upDoc.body.entities[0]!.uuid}?size=small`)).status).toBe(403);
  });

  it("refuses empty, oversized and non-multipart uploads with status 400 (any other status reads as success to the client)", async () => {
    const a = await im.user("f");
    const empty = multipart({ filename: "e.bin", contentType: "application/octet-stream", data: Buffer.alloc(0) });
    const r1 = await im.call("POST", "chatfiles", { token: a.token, payload: empty.payload, headers: empty.headers });
    expect(r1.status).toBe(400);
    expect(r1.body.error_code).toBe(14403);
    const big = multipart({
      filename: "big.bin",
      contentType: "application/octet-stream",
      data: Buffer.alloc(5000, 1),
    });
    const r2 = await im.call("POST", "chatfiles", { token: a.token, payload: big.payload, headers: big.headers });
    expect(r2.status).toBe(400);
    expect(r2.body.error_description).toContain("exceeds the limit of 4096 bytes");
    const r3 = await im.call("POST", "chatfiles", { token: a.token, body: { not: "a file" } });
    expect(r3.status).toBe(400);
    const huge = multipart({
      filename: "huge.bin",
      contentType: "application/octet-stream",
      data: Buffer.alloc(600 * 1024, 1),
    });
    const r4 = await im.call("POST", "chatfiles", { token: a.token, payload: huge.payload, headers: huge.headers });
    expect(r4.status).toBe(400);
  });

  it("a deleted shared file answers 'file_expired'", async () => {
    const a = await im.user("f");
    const gid = (
      await im.call<{ data: { groupid: string } }>("POST", "chatgroups", { token: a.token, body: { groupname: "g" } })
    ).body.data.groupid;
    const body = multipart({ filename: "s.txt", contentType: "text/plain", data: Buffer.from("x") });
    const up = await im.call<{ data: { file_id: string } }>("POST", `chatgroups/${gid}/share_files`, {
      token: a.token,
      payload: body.payload,
      headers: body.headers,
    });
    const row = await im.t.ctx.database.db
      .selectFrom("im_files")
      .select("share_secret")
      .where("uuid", "=", up.body.data.file_id)
      .executeTakeFirstOrThrow();
    await im.call("DELETE", `chatgroups/${gid}/share_files/${up.body.data.file_id}`, { token: a.token });
    const gone = await im.call("GET", `chatfiles/${up.body.data.file_id}?share-secret=${row.share_secret}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error).toBe("file_expired");
  });
});
