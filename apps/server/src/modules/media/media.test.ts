import { randomBytes } from "node:crypto";
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import type { LibraryItem, Page, VideoInfo } from "@tessera/contracts";
import { beforeAll, describe, expect, it } from "vitest";
import { STRONG_PASSWORD, registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";

const t = useTestApp();
let owner: Awaited<ReturnType<typeof registerMerchant>>;
let other: Awaited<ReturnType<typeof registerMerchant>>;
beforeAll(async () => {
  owner = await registerMerchant(t, { orgName: "Video Brand Co" });
  other = await registerMerchant(t, { orgName: "Other Brand Co" });
});

/** After the test clock jumps past the login lifetime, both merchants log in again. */
async function jumpDays(days: number): Promise<void> {
  t.clock.advance(days * 24 * 3600);
  for (const m of [owner, other]) {
    const login = await t.call<{ token: string }>("POST", "/api/card-user/login", {
      body: { email: m.email, password: STRONG_PASSWORD, version: "domestic" },
    });
    m.token = login.body.data.token;
  }
}

const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");
const metadata = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([k, v]) => `${k} ${b64(v)}`)
    .join(",");
const TUS = { "tus-resumable": "1.0.0" };
const MiB = 1024 * 1024;

async function create(token: string, length: number, fields: Record<string, string>, lang: "cn" | "tw" | "en" = "en") {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/media/uploads",
    headers: {
      ...TUS,
      "x-auth-token": token,
      lang,
      "upload-length": String(length),
      "upload-metadata": metadata(fields),
    },
  });
  return {
    status: res.statusCode,
    location: res.headers.location,
    msg: res.body ? res.json<{ msg: string }>().msg : "",
    headers: res.headers,
  };
}

async function head(token: string, location: string) {
  const res = await t.app.inject({ method: "HEAD", url: location, headers: { ...TUS, "x-auth-token": token } });
  return {
    status: res.statusCode,
    offset: Number(res.headers["upload-offset"]),
    length: Number(res.headers["upload-length"]),
    videoId: res.headers["tessera-video-id"] as string | undefined,
    headers: res.headers,
  };
}

async function patch(
  token: string,
  location: string,
  offset: number,
  body: Buffer,
  contentType = "application/offset+octet-stream",
) {
  const res = await t.app.inject({
    method: "PATCH",
    url: location,
    headers: {
      ...TUS,
      "x-auth-token": token,
      lang: "en",
      "upload-offset": String(offset),
      "content-type": contentType,
    },
    payload: body,
  });
  return {
    status: res.statusCode,
    offset: Number(res.headers["upload-offset"]),
    videoId: res.headers["tessera-video-id"] as string | undefined,
    body: res.body,
    headers: res.headers,
  };
}

/** Uploads a whole file in 1 MiB parts; returns the video id. */
async function uploadAll(token: string, data: Buffer, fields: Record<string, string>): Promise<string> {
  const created = await create(token, data.length, fields);
  expect(created.status).toBe(201);
  const location = created.location ?? "";
  let offset = 0;
  let videoId: string | undefined;
  while (offset < data.length) {
    const part = data.subarray(offset, offset + MiB);
    const res = await patch(token, location, offset, part);
    expect(res.status).toBe(204);
    offset = res.offset;
    videoId = res.videoId;
  }
  expect(videoId).toMatch(/^\d+$/);
  return videoId ?? "";
}

describe("tus protocol", () => {
  it("OPTIONS tells the version, the extensions and the maximum size", async () => {
    const res = await t.app.inject({ method: "OPTIONS", url: "/api/media/uploads" });
    expect(res.statusCode).toBe(204);
    expect(res.headers["tus-version"]).toBe("1.0.0");
    expect(res.headers["tus-extension"]).toBe("creation,termination");
    expect(res.headers["tus-max-size"]).toBe(String(2 * 1024 * 1024 * 1024));
    expect(res.headers["tus-resumable"]).toBe("1.0.0");
  });

  it("refuses a missing login, a wrong protocol version and a bad length", async () => {
    const anon = await t.app.inject({
      method: "POST",
      url: "/api/media/uploads",
      headers: { ...TUS, "upload-length": "5000" },
    });
    expect(anon.statusCode).toBe(401);
    const version = await t.app.inject({
      method: "POST",
      url: "/api/media/uploads",
      headers: { "tus-resumable": "0.2.2", "x-auth-token": owner.token, "upload-length": "5000" },
    });
    expect(version.statusCode).toBe(412);
    const noLength = await t.app.inject({
      method: "POST",
      url: "/api/media/uploads",
      headers: {
        ...TUS,
        "x-auth-token": owner.token,
        lang: "en",
        "upload-metadata": metadata({ filename: "a.mp4", type: "3" }),
      },
    });
    expect(noLength.statusCode).toBe(400);
    expect(noLength.json<{ msg: string }>().msg).toBe("The upload length is not valid");
    const badMeta = await t.app.inject({
      method: "POST",
      url: "/api/media/uploads",
      headers: { ...TUS, "x-auth-token": owner.token, "upload-length": "5000", "upload-metadata": "filename !!!" },
    });
    expect(badMeta.statusCode).toBe(400);
  });

  it("enforces the dialog's file rules with their messages in three languages", async () => {
    const txt = await create(owner.token, 5000, { filename: "notes.txt", type: "3" });
    expect([txt.status, txt.msg]).toEqual([415, "Only video formats are supported"]);
    const small = await create(owner.token, 500, { filename: "tiny.mp4", type: "3" }, "cn");
    expect([small.status, small.msg]).toEqual([400, "视频大小至少1KB"]);
    const big = await create(owner.token, 2 * 1024 * 1024 * 1024 + 1, { filename: "huge.mkv", type: "3" }, "tw");
    expect([big.status, big.msg]).toEqual([413, "視頻大小不能超過2GB"]);
    const noFile = await create(owner.token, 5000, { type: "3" });
    expect([noFile.status, noFile.msg]).toEqual([400, "Please choose a file first"]);
    const videoInAudio = await create(owner.token, 5000, { filename: "clip.mp4", type: "7", isAudioType: "true" });
    expect([videoInAudio.status, videoInAudio.msg]).toEqual([415, "Only audio formats are supported"]);
    const audio = await create(owner.token, 5000, { filename: "song.MP3", type: "7", isAudioType: "true" });
    expect(audio.status).toBe(201);
    const sizeLie = await create(owner.token, 5000, { filename: "clip.mp4", type: "3", videosize: "99" });
    expect([sizeLie.status, sizeLie.msg]).toEqual([400, "The video size does not match the file"]);
    const badType = await create(owner.token, 5000, { filename: "clip.mp4", type: "abc" });
    expect([badType.status, badType.msg]).toEqual([400, "The upload type is not valid"]);
  });

  it("uploads in parts: offsets must match, parts must be offset+octet-stream, the last part makes a video", async () => {
    const data = randomBytes(2 * MiB + 12345);
    const created = await create(owner.token, data.length, {
      filename: "launch.mp4",
      type: "3",
      id: "course-17",
      name: "Launch film",
      videosize: String(Math.ceil(data.length / 1024)),
      zhuanma: "1",
    });
    expect(created.status).toBe(201);
    expect(created.headers["tus-resumable"]).toBe("1.0.0");
    const location = created.location ?? "";
    expect(location).toMatch(/^\/api\/media\/uploads\/[A-Za-z0-9_-]{32}$/);

    const start = await head(owner.token, location);
    expect([start.status, start.offset, start.length]).toEqual([200, 0, data.length]);
    expect(start.headers["cache-control"]).toBe("no-store");

    const first = await patch(owner.token, location, 0, data.subarray(0, MiB));
    expect([first.status, first.offset, first.videoId]).toEqual([204, MiB, undefined]);
    const stale = await patch(owner.token, location, 0, data.subarray(0, MiB));
    expect(stale.status).toBe(409);
    const json = await patch(owner.token, location, MiB, data.subarray(MiB, 2 * MiB), "application/json");
    expect(json.status).toBe(415);
    const tooMuch = await patch(owner.token, location, MiB, Buffer.concat([data.subarray(MiB), Buffer.alloc(10)]));
    expect(tooMuch.status).toBe(413);
    expect((await head(owner.token, location)).offset).toBe(MiB);

    const second = await patch(owner.token, location, MiB, data.subarray(MiB, 2 * MiB));
    expect(second.offset).toBe(2 * MiB);
    const last = await patch(owner.token, location, 2 * MiB, data.subarray(2 * MiB));
    expect(last.status).toBe(204);
    expect(last.offset).toBe(data.length);
    const videoId = last.videoId ?? "";
    expect(videoId).toMatch(/^\d+$/);
    const done = await head(owner.token, location);
    expect([done.offset, done.videoId]).toEqual([data.length, videoId]);

    const info = await t.call<VideoInfo>("POST", "/api/ecommerce/course/video/info", {
      token: owner.token,
      body: { videoid: videoId },
    });
    expect(info.body.code).toBe(1);
    expect(info.body.data).toMatchObject({
      videoid: videoId,
      id: "course-17",
      type: 3,
      name: "Launch film",
      filename: "launch.mp4",
      size: Math.ceil(data.length / 1024),
      bytes: data.length,
      kind: "video",
      contentType: "video/mp4",
      zhuanma: true,
    });

    // Playback through the signed address: whole file, byte ranges, suffix ranges.
    const url = info.body.data.url;
    const whole = await t.app.inject({ method: "GET", url });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers["accept-ranges"]).toBe("bytes");
    expect(whole.headers["content-type"]).toBe("video/mp4");
    expect(Buffer.compare(whole.rawPayload, data)).toBe(0);
    const part = await t.app.inject({ method: "GET", url, headers: { range: "bytes=1000-1999" } });
    expect(part.statusCode).toBe(206);
    expect(part.headers["content-range"]).toBe(`bytes 1000-1999/${data.length}`);
    expect(Buffer.compare(part.rawPayload, data.subarray(1000, 2000))).toBe(0);
    const tail = await t.app.inject({ method: "GET", url, headers: { range: "bytes=-100" } });
    expect(Buffer.compare(tail.rawPayload, data.subarray(data.length - 100))).toBe(0);
    const open = await t.app.inject({ method: "GET", url, headers: { range: `bytes=${data.length - 5}-` } });
    expect(open.headers["content-range"]).toBe(`bytes ${data.length - 5}-${data.length - 1}/${data.length}`);
    const beyond = await t.app.inject({ method: "GET", url, headers: { range: `bytes=${data.length}-` } });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers["content-range"]).toBe(`bytes */${data.length}`);

    const forged = await t.app.inject({ method: "GET", url: url.replace(/s=[0-9a-f]+/, `s=${"0".repeat(64)}`) });
    expect(forged.statusCode).toBe(403);
    await jumpDays(0.3);
    const expired = await t.app.inject({ method: "GET", url, headers: { lang: "en" } });
    expect(expired.statusCode).toBe(403);
    expect(expired.json<{ msg: string }>().msg).toBe("The playback link has expired; reload the page");
  });

  it("resumes after the connection breaks mid-part: the bytes that arrived are kept", async () => {
    const data = randomBytes(3 * MiB);
    const created = await create(owner.token, data.length, { filename: "interrupted.mov", type: "3" });
    const location = created.location ?? "";
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = t.app.server.address() as AddressInfo;

    // Announce a 2 MiB part, send 1.5 MiB of it, then drop the connection.
    const sent = MiB + MiB / 2;
    await new Promise<void>((resolve) => {
      const req = httpRequest({
        host: "127.0.0.1",
        port,
        method: "PATCH",
        path: location,
        headers: {
          ...TUS,
          "x-auth-token": owner.token,
          "upload-offset": "0",
          "content-type": "application/offset+octet-stream",
          "content-length": String(2 * MiB),
        },
      });
      req.on("error", () => resolve());
      req.write(data.subarray(0, sent), () => {
        setTimeout(() => {
          req.destroy();
          resolve();
        }, 300);
      });
    });
    let state = await head(owner.token, location);
    for (let i = 0; i < 50 && state.offset < sent; i++) {
      await new Promise((r) => setTimeout(r, 50));
      state = await head(owner.token, location);
    }
    expect(state.offset).toBe(sent);

    // Continue from the server's offset.
    const rest = await patch(owner.token, location, state.offset, data.subarray(state.offset));
    expect(rest.status).toBe(204);
    const info = await t.call<VideoInfo>("POST", "/api/ecommerce/course/video/info", {
      token: owner.token,
      body: { videoid: rest.videoId },
    });
    const file = await t.app.inject({ method: "GET", url: info.body.data.url });
    expect(file.headers["content-type"]).toBe("video/quicktime");
    expect(Buffer.compare(file.rawPayload, data)).toBe(0);
  });

  it("terminates an unfinished upload; a finished one cannot be cancelled", async () => {
    const created = await create(owner.token, 4096, { filename: "cancel.webm", type: "3" });
    const location = created.location ?? "";
    await patch(owner.token, location, 0, randomBytes(1000));
    const del = await t.app.inject({
      method: "DELETE",
      url: location,
      headers: { ...TUS, "x-auth-token": owner.token },
    });
    expect(del.statusCode).toBe(204);
    expect((await head(owner.token, location)).status).toBe(404);

    const done = await create(owner.token, 2048, { filename: "keep.webm", type: "3" });
    await patch(owner.token, done.location ?? "", 0, randomBytes(2048));
    const refused = await t.app.inject({
      method: "DELETE",
      url: done.location ?? "",
      headers: { ...TUS, "x-auth-token": owner.token, lang: "en" },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ msg: string }>().msg).toBe("This upload is already a saved video and cannot be cancelled");
  });

  it("removes uploads abandoned for a week", async () => {
    const created = await create(owner.token, 4096, { filename: "abandoned.avi", type: "3" });
    await patch(owner.token, created.location ?? "", 0, randomBytes(100));
    await jumpDays(8);
    await create(owner.token, 4096, { filename: "fresh.avi", type: "3" });
    expect((await head(owner.token, created.location ?? "")).status).toBe(404);
  });
});

describe("video library", () => {
  it("adds uploaded videos once, pages them newest first and filters by type", async () => {
    const a = await uploadAll(owner.token, randomBytes(3000), { filename: "a.mp4", type: "3" });
    const b = await uploadAll(owner.token, randomBytes(1500 * 1024), {
      filename: "b.mp3",
      type: "7",
      isAudioType: "true",
    });
    const addA = await t.call<{ added: number; list: LibraryItem[] }>("POST", "/api/ecommerce/videolibrary/batchadd", {
      token: owner.token,
      body: { type_id: 3, list: [{ name: "Video A", size: 3, videoid: a }] },
    });
    expect(addA.body.code).toBe(1);
    expect(addA.body.data.added).toBe(1);
    const addB = await t.call<{ added: number }>("POST", "/api/ecommerce/videolibrary/batchadd", {
      token: owner.token,
      body: { type_id: "7", list: [{ name: "Audio B", size: 1500, videoid: Number(b) }] },
    });
    expect(addB.body.data.added).toBe(1);
    const again = await t.call<{ added: number; list: LibraryItem[] }>("POST", "/api/ecommerce/videolibrary/batchadd", {
      token: owner.token,
      body: { type_id: 3, list: [{ name: "Video A again", videoid: a }] },
    });
    expect(again.body.data.added).toBe(0);
    expect(again.body.data.list[0]?.name).toBe("Video A");

    const page = await t.call<Page<LibraryItem>>("POST", "/api/ecommerce/videolibrary/pager", {
      token: owner.token,
      body: { page: 1, pagesize: 20 },
    });
    expect(page.body.code).toBe(1);
    expect(page.body.data.total).toBe(2);
    expect(page.body.data.list.map((i) => [i.name, i.videoid, i.type_id, i.kind, i.size])).toEqual([
      ["Audio B", b, 7, "audio", 1500],
      ["Video A", a, 3, "video", 3],
    ]);
    const audioOnly = await t.call<Page<LibraryItem>>("POST", "/api/ecommerce/videolibrary/pager", {
      token: owner.token,
      body: { page: 1, pagesize: 20, type_id: 7 },
    });
    expect(audioOnly.body.data.list.map((i) => i.videoid)).toEqual([b]);
    const named = await t.call<Page<LibraryItem>>("POST", "/api/ecommerce/videolibrary/pager", {
      token: owner.token,
      body: { name: "video" },
    });
    expect(named.body.data.list.map((i) => i.videoid)).toEqual([a]);
    const play = await t.app.inject({ method: "GET", url: page.body.data.list[0]?.url ?? "" });
    expect(play.headers["content-type"]).toBe("audio/mpeg");
    expect(play.rawPayload.length).toBe(1500 * 1024);

    const badSize = await t.call("POST", "/api/ecommerce/videolibrary/pager", {
      token: owner.token,
      lang: "en",
      body: { page: 1, pagesize: 7 },
    });
    expect(badSize.status).toBe(400);
    const empty = await t.call("POST", "/api/ecommerce/videolibrary/batchadd", {
      token: owner.token,
      lang: "en",
      body: { type_id: 3, list: [] },
    });
    expect(empty.body.msg).toBe("Please choose the videos to add");
    const missing = await t.call("POST", "/api/ecommerce/videolibrary/batchadd", {
      token: owner.token,
      lang: "cn",
      body: { type_id: 3, list: [{ name: "x", videoid: "999999999" }] },
    });
    expect([missing.status, missing.body.msg]).toEqual([404, "视频不存在"]);
  });

  it("keeps tenants apart: another merchant reaches none of the uploads, videos or library", async () => {
    const data = randomBytes(4096);
    const created = await create(owner.token, data.length, { filename: "private.mp4", type: "3" });
    const location = created.location ?? "";
    expect((await head(other.token, location)).status).toBe(404);
    expect((await patch(other.token, location, 0, data)).status).toBe(404);
    const del = await t.app.inject({
      method: "DELETE",
      url: location,
      headers: { ...TUS, "x-auth-token": other.token },
    });
    expect(del.statusCode).toBe(404);
    const mine = await patch(owner.token, location, 0, data);
    const videoId = mine.videoId ?? "";
    expect(videoId).toMatch(/^\d+$/);

    const info = await t.call("POST", "/api/ecommerce/course/video/info", {
      token: other.token,
      body: { videoid: videoId },
    });
    expect(info.status).toBe(404);
    const steal = await t.call("POST", "/api/ecommerce/videolibrary/batchadd", {
      token: other.token,
      body: { type_id: 3, list: [{ name: "stolen", videoid: videoId }] },
    });
    expect(steal.status).toBe(404);
    await t.call("POST", "/api/ecommerce/videolibrary/batchadd", {
      token: owner.token,
      body: { type_id: 3, list: [{ name: "Private", videoid: videoId }] },
    });
    const theirs = await t.call<Page<LibraryItem>>("POST", "/api/ecommerce/videolibrary/pager", {
      token: other.token,
      body: {},
    });
    expect(theirs.body.data.total).toBe(0);
    const ours = await t.call<Page<LibraryItem>>("POST", "/api/ecommerce/videolibrary/pager", {
      token: owner.token,
      body: {},
    });
    expect(ours.body.data.list.some((i) => i.videoid === videoId)).toBe(true);
  });
});
