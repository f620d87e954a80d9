import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startImTest, type ImTest } from "../../../test/im-harness";

/**
 * A LibreTranslate-compatible server for the adapter to talk to over HTTP: it knows English, German and
 * Chinese, "translates" by a small dictionary, and checks the API key.
 */
const DICT: Record<string, Record<string, string>> = { de: { hello: "hallo" }, zh: { hello: "你好" } };
let server: http.Server;
let url: string;
const seen: unknown[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      res.setHeader("content-type", "application/json");
      if (req.method === "GET" && req.url === "/languages") {
        res.end(
          JSON.stringify([
            { code: "en", name: "English", targets: ["de", "zh"] },
            { code: "de", name: "German", targets: ["en"] },
            { code: "zh", name: "Chinese", targets: ["en"] },
          ]),
        );
        return;
      }
      if (req.method === "POST" && req.url === "/translate") {
        const q = JSON.parse(body) as { q: string; target: string; api_key?: string; source: string };
        seen.push(q);
        if (q.api_key !== "k-123") {
          res.statusCode = 403;
          res.end(JSON.stringify({ error: "Invalid API key" }));
          return;
        }
        res.end(
          JSON.stringify({
            translatedText: DICT[q.target]?.[q.q.toLowerCase()] ?? q.q,
            detectedLanguage: { confidence: 90, language: "en" },
          }),
        );
        return;
      }
      res.statusCode = 404;
      res.end("{}");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
});

describe("translation", () => {
  let im: ImTest;
  afterAll(async () => {
    await im.close();
  });

  it("through a LibreTranslate server: languages and translations to several targets", async () => {
    im = await startImTest({ TRANSLATE_URL: url, TRANSLATE_API_KEY: "k-123" });
    const u = await im.user("tr");
    const langs = await im.call<{ data: { code: string; name: string; nativeName: string }[] }>(
      "GET",
      `users/${u.name}/translate/support/language`,
      { token: u.token },
    );
    expect(langs.body.data).toEqual([
      { code: "en", name: "English", nativeName: "English" },
      { code: "de", name: "German", nativeName: "Deutsch" },
      { code: "zh", name: "Chinese", nativeName: "中文" },
    ]);
    const tr = await im.call<{
      data: { detectedLanguage: { language: string; score: number }; translations: { to: string; text: string }[] }[];
    }>("POST", `users/${u.name}/translate`, {
      token: u.token,
      body: { text: "hello", to: ["de", "zh"] },
    });
    expect(tr.status).toBe(200);
    expect(tr.body.data[0]).toEqual({
      detectedLanguage: { language: "en", score: 0.9 },
      translations: [
        { text: "hallo", to: "de" },
        { text: "你好", to: "zh" },
      ],
    });
    expect(seen).toContainEqual({ q: "hello", source: "auto", target: "de", format: "text", api_key: "k-123" });
    const bad = await im.call("POST", `users/${u.name}/translate`, {
      token: u.token,
      body: { text: "hello", to: ["xx"] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error_description).toBe("The target language is not valid.");
    const long = await im.call("POST", `users/${u.name}/translate`, {
      token: u.token,
      body: { text: "a".repeat(5001), to: ["de"] },
    });
    expect(long.body.error_description).toBe("The input text is too long.");
    expect(
      (await im.call("POST", `users/${u.name}/translate`, { token: u.token, body: { text: "", to: ["de"] } })).status,
    ).toBe(400);
  });

  it("reports the upstream's failure as 'translte failed!' (500), never a made-up translation", async () => {
    const wrongKey = await startImTest({ TRANSLATE_URL: url, TRANSLATE_API_KEY: "nope" });
    try {
      const u = await wrongKey.user("tr");
      const res = await wrongKey.call("POST", `users/${u.name}/translate`, {
        token: u.token,
        body: { text: "hello", to: ["de"] },
      });
      expect(res.status).toBe(500);
      expect(res.body.error_description).toContain("translte failed!");
    } finally {
      await wrongKey.close();
    }
  });

  it("without TRANSLATE_URL the service is not enabled", async () => {
    const off = await startImTest();
    try {
      const u = await off.user("tr");
      for (const res of [
        await off.call("GET", `users/${u.name}/translate/support/language`, { token: u.token }),
        await off.call("POST", `users/${u.name}/translate`, { token: u.token, body: { text: "hello", to: ["de"] } }),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body.error_code).toBe(15002);
        expect(res.body.error_description).toBe("translation service not open!");
      }
    } finally {
      await off.close();
    }
  });
});
