import { expect, test } from "@playwright/test";

/**
 * The built assets go out precompressed (brotli or gzip, made at build time), as the browser accepts:
 * the login page's scripts arrive compressed, and the same bytes uncompressed to a client that asks so.
 */
test("assets are sent brotli- or gzip-compressed by Accept-Encoding", async ({ page, request }) => {
  const scripts: string[] = [];
  page.on("response", (res) => {
    if (/\/assets\/.+\.js$/.test(res.url())) scripts.push(res.url());
  });
  await page.goto("/login", { waitUntil: "networkidle" });
  expect(scripts.length).toBeGreaterThan(0);
  // The build compresses files of 1 kB and more (vite.config.ts threshold); a tiny chunk goes out as it is.
  const sizes = await Promise.all(
    scripts.map(
      async (u) => (await (await request.get(u, { headers: { "accept-encoding": "identity" } })).body()).length,
    ),
  );
  const url = scripts[sizes.findIndex((n) => n >= 1024)]!;
  expect(url).toBeDefined();
  const br = await request.get(url, { headers: { "accept-encoding": "br" } });
  expect(br.headers()["content-encoding"]).toBe("br");
  const gz = await request.get(url, { headers: { "accept-encoding": "gzip" } });
  expect(gz.headers()["content-encoding"]).toBe("gzip");
  const plain = await request.get(url, { headers: { "accept-encoding": "identity" } });
  expect(plain.headers()["content-encoding"]).toBeUndefined();
  // Playwright's request client decodes what it receives: all three carry the same script.
  expect((await br.body()).equals(await plain.body())).toBe(true);
  expect((await gz.body()).equals(await plain.body())).toBe(true);
  expect(br.headers()["cache-control"]).toContain("immutable");
});
