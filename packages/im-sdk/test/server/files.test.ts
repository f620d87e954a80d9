import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { WebSocket } from "ws";
import { startImTest, type ImTest } from "../../../../apps/server/test/im-harness";
import {
  connection,
  message,
  THUMBNAIL_THRESHOLD,
  type ChatMessage,
  type Connection,
  type Progress,
  type WebSocketClass,
} from "../../src/index";

/**
 * File messages through our SDK against the server: the attachment is uploaded first (with progress),
 * an image over 200 KB gets a thumbnail, the receiver downloads it with progress; combined messages
 * upload their file and parse back.
 */
let im: ImTest;
let baseUrl: string;
let appKey: string;
let alice: Connection;
let bob: Connection;
const received: ChatMessage[] = [];

async function online(prefix: string): Promise<Connection> {
  const { name } = await im.user(prefix);
  const conn = new connection({
    appKey,
    apiUrl: baseUrl,
    url: `${baseUrl.replace(/^http/, "ws")}/websocket`,
    WebSocket: WebSocket as unknown as WebSocketClass,
  });
  conn.addEventHandler("t", {
    onImageMessage: (m) => received.push(m),
    onCombineMessage: (m) => received.push(m),
    onFileMessage: (m) => received.push(m),
  });
  await conn.open({ user: name, pwd: "pw-secret-1" });
  return conn;
}

async function until<T>(what: () => T | undefined, label: string): Promise<T> {
  const end = Date.now() + 10_000;
  for (;;) {
    const v = what();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${label}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  im = await startImTest();
  await im.t.app.listen({ port: 0, host: "127.0.0.1" });
  baseUrl = `http://127.0.0.1:${(im.t.app.server.address() as AddressInfo).port}`;
  appKey = `${im.t.config.im.org}#${im.t.config.im.app}`;
  alice = await online("alice");
  bob = await online("bob");
});
afterAll(async () => {
  alice?.close();
  bob?.close();
  await im?.close();
});

describe("file messages", () => {
  test("an image over 200 KB: uploaded with progress and a thumbnail; the receiver downloads it with progress", async () => {
    // Random pixels do not compress: the PNG stays well above 200 KB.
    const noise = randomBytes(400 * 400 * 3);
    const png = await sharp(noise, { raw: { width: 400, height: 400, channels: 3 } })
      .png()
      .toBuffer();
    expect(png.length).toBeGreaterThan(THUMBNAIL_THRESHOLD);
    const progress: Progress[] = [];
    const m = message.create({
      type: "img",
      chatType: "singleChat",
      to: bob.user,
      width: 400,
      height: 400,
      file: { data: new Blob([png], { type: "image/png" }), filename: "noise.png" },
      onFileUploadProgress: (p) => progress.push(p),
    });
    const sent = await alice.send(m);
    expect(m.status).toBe("SUCCESS");
    expect(progress.at(-1)?.loaded).toBeGreaterThan(0);
    expect(m.url).toMatch(/\/chatfiles\/[\w-]+$/);
    expect(m.file_length).toBe(png.length);
    expect(m.thumb).toContain("thumbnail=true");

    const thumb = await alice.download({ url: m.thumb!, secret: m.secret! });
    const meta = await sharp(Buffer.from(await thumb!.arrayBuffer())).metadata();
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeLessThanOrEqual(200);

    const got = await until(() => received.find((r) => r.id === sent.serverMsgId), "the image at bob");
    expect(got).toMatchObject({ type: "img", width: 400, height: 400, file_length: png.length });
    const downloaded: Progress[] = [];
    const blob = await bob.download({
      url: got.url!,
      secret: got.secret!,
      onFileDownloadProgress: (p) => downloaded.push(p),
    });
    expect(Buffer.from(await blob!.arrayBuffer()).equals(png)).toBe(true);
    expect(downloaded.at(-1)).toEqual({ loaded: png.length, total: png.length });
  });

  test("a small image gets no thumbnail", async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#369" } })
      .png()
      .toBuffer();
    const m = message.create({
      type: "img",
      chatType: "singleChat",
      to: bob.user,
      file: { data: new Blob([png], { type: "image/png" }), filename: "dot.png" },
    });
    await alice.send(m);
    expect(m.thumb).toBeUndefined();
    expect(m.url).toBeTruthy();
  });

  test("a combined message uploads its file; the receiver downloads and parses the messages", async () => {
    const inner = [
      message.create({ type: "txt", to: bob.user, msg: "first" }),
      message.create({ type: "txt", to: bob.user, msg: "second" }),
    ];
    for (const x of inner) x.from = alice.user;
    const m = message.create({
      type: "combine",
      chatType: "singleChat",
      to: bob.user,
      title: "Chat",
      summary: "2 messages",
      compatibleText: "[combined]",
      messageList: inner,
    });
    const sent = await alice.send(m);
    const got = await until(() => received.find((r) => r.id === sent.serverMsgId), "the combined message at bob");
    expect(got).toMatchObject({
      type: "combine",
      title: "Chat",
      summary: "2 messages",
      compatibleText: "[combined]",
      combineLevel: 1,
    });
    const messages = await bob.downloadAndParseCombineMessage({ url: got.url!, secret: got.secret! });
    expect(messages.map((x) => x.msg)).toEqual(["first", "second"]);
  });
});
