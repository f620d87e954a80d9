import type { AddressInfo } from "node:net";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { build } from "rolldown";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { WebSocket } from "ws";
import { startImTest, type ImTest } from "../../../../apps/server/test/im-harness";
import { chromiumLaunchOptions } from "../../../../e2e/support/browser";
import type * as sdk from "../../src/index";
import { connection, message, type ChatMessage, type Connection, type WebSocketClass } from "../../src/index";

/**
 * The browser build in headless Chromium against the server: the page loads the minified ES module
 * (served on the server's origin through request interception, so no CORS is involved; an intercepted
 * document has no known address space, hence the local-network-access flag) and uses the
 * browser's own WebSocket, fetch, XMLHttpRequest and IndexedDB. A Node client (our SDK over `ws`) talks
 * to it.
 */
let im: ImTest;
let baseUrl: string;
let appKey: string;
let browser: Browser;
let page: Page;
let bob: Connection;
const bobGot: ChatMessage[] = [];

declare global {
  interface Window {
    sdk: typeof sdk;
    conn: Connection;
    got: { id: string; from: string; msg?: string }[];
    progress: number[];
  }
}

beforeAll(async () => {
  im = await startImTest();
  await im.t.app.listen({ port: 0, host: "127.0.0.1" });
  baseUrl = `http://127.0.0.1:${(im.t.app.server.address() as AddressInfo).port}`;
  appKey = `${im.t.config.im.org}#${im.t.config.im.app}`;
  const bundle = await build({
    input: path.join(import.meta.dirname, "../../src/index.ts"),
    platform: "browser",
    write: false,
    logLevel: "silent",
    output: { format: "esm", minify: true },
  });
  const code = bundle.output.find((o) => o.type === "chunk")?.code ?? "";
  const { executablePath, args, choice } = await chromiumLaunchOptions([
    "--no-sandbox",
    "--disable-gpu",
    "--disable-features=LocalNetworkAccessChecks",
  ]);
  console.log(`Browser: ${choice.label}`);
  browser = await chromium.launch({ executablePath, args });
  page = await browser.newPage();
  await page.route(`${baseUrl}/__im_sdk/**`, (route) => {
    const file = new URL(route.request().url()).pathname.split("/").pop();
    if (file === "sdk.js") return route.fulfill({ status: 200, contentType: "text/javascript", body: code });
    return route.fulfill({
      status: 200,
      contentType: "text/html",
      body: '<!doctype html><script type="module">import * as sdk from "./sdk.js"; window.sdk = sdk;</script>',
    });
  });
  await page.goto(`${baseUrl}/__im_sdk/index.html`);
  await page.waitForFunction(() => typeof window.sdk?.connection === "function");
}, 60_000);
afterAll(async () => {
  bob?.close();
  await browser?.close();
  await im?.close();
});

describe("the browser build", () => {
  test("logs in, sends, receives, uploads with progress and caches in IndexedDB, with the browser's own APIs", async () => {
    const alice = await im.user("alice");
    const { name: bobName } = await im.user("bob");
    bob = new connection({
      appKey,
      apiUrl: baseUrl,
      url: `${baseUrl.replace(/^http/, "ws")}/websocket`,
      WebSocket: WebSocket as unknown as WebSocketClass,
    });
    bob.addEventHandler("t", { onTextMessage: (m) => bobGot.push(m), onFileMessage: (m) => bobGot.push(m) });
    await bob.open({ user: bobName, pwd: "pw-secret-1" });

    const sent = await page.evaluate(
      async ({ appKey, user, to }) => {
        // Only page-side names here: the test file's imports do not exist in the page.
        const api = window.sdk;
        window.got = [];
        window.progress = [];
        window.conn = new api.connection({ appKey, apiUrl: location.origin, url: `ws://${location.host}/websocket` });
        window.conn.addEventHandler("page", {
          onTextMessage: (m) => window.got.push({ id: m.id, from: m.from, msg: m.msg }),
        });
        await window.conn.open({ user, pwd: "pw-secret-1" });
        const text = await window.conn.send(
          api.message.create({ type: "txt", chatType: "singleChat", to, msg: "from the browser" }),
        );
        const file = api.message.create({
          type: "file",
          chatType: "singleChat",
          to,
          file: { data: new Blob(["a".repeat(50_000)], { type: "text/plain" }), filename: "notes.txt" },
          onFileUploadProgress: (p) => window.progress.push(p.loaded),
        });
        const attachment = await window.conn.send(file);
        return {
          text: text.serverMsgId,
          file: attachment.serverMsgId,
          status: file.status,
          hasWebSocket: typeof (globalThis as { WebSocket?: unknown }).WebSocket === "function",
          hasBuffer: typeof (globalThis as { Buffer?: unknown }).Buffer !== "undefined",
        };
      },
      { appKey, user: alice.name, to: bobName },
    );
    expect(sent).toMatchObject({ status: "SUCCESS", hasWebSocket: true, hasBuffer: false });
    await expect.poll(() => bobGot.map((m) => m.id)).toEqual(expect.arrayContaining([sent.text, sent.file]));
    expect(bobGot.find((m) => m.id === sent.text)).toMatchObject({ from: alice.name, msg: "from the browser" });
    expect(bobGot.find((m) => m.id === sent.file)).toMatchObject({
      type: "file",
      filename: "notes.txt",
      file_length: 50_000,
    });
    const progress = await page.evaluate(() => window.progress);
    expect(progress.at(-1)).toBeGreaterThanOrEqual(50_000);

    const reply = await bob.send(
      message.create({ type: "txt", chatType: "singleChat", to: alice.name, msg: "hello browser" }),
    );
    await page.waitForFunction((id) => window.got.some((m) => m.id === id), reply.serverMsgId);
    const cached = await page.evaluate(async (peer) => {
      await window.conn.cache?.flush();
      const dbs = await indexedDB.databases();
      return {
        dbs: dbs.map((d) => [d.name, d.version]),
        last: window.conn.cache?.getConversation(peer, "singleChat")?.lastMessage?.msg,
      };
    }, bobName);
    expect(cached.dbs).toContainEqual([`tessera-im-${appKey}`, 1]);
    expect(cached.last).toBe("hello browser");

    const history = await page.evaluate(
      (peer) =>
        window.conn
          .getHistoryMessages({ targetId: peer, chatType: "singleChat", pageSize: 10 })
          .then((h) => h.messages.map((m) => m.msg ?? m.type)),
      bobName,
    );
    expect(history).toEqual(["hello browser", "file", "from the browser"]);
    await page.evaluate(() => window.conn.close());
  }, 60_000);
});
