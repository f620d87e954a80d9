import { expect, test, type APIRequestContext } from "@playwright/test";
import { loginToken, registerAccount } from "../support/api";
import { sessionPage } from "../support/journey";

/**
 * User files cannot run script on the app's origin (issue 38 item 2). Before, an uploaded HTML chat file was
 * served inline under the uploader's type, and an HTML file loading an uploaded `text/javascript` file
 * read the victim's `x-auth-token` from localStorage. Now the type comes from the bytes: both are
 * `application/octet-stream`, downloads, with nosniff and a sandbox CSP.
 */

interface Upload {
  entities: { uuid: string; "share-secret": string; "file-metadata": { "content-type": string } }[];
}

async function upload(
  request: APIRequestContext,
  base: string,
  imToken: string,
  name: string,
  mimeType: string,
  text: string,
): Promise<string> {
  const res = await request.post(`${base}/chatfiles`, {
    headers: { authorization: `Bearer ${imToken}`, "restrict-access": "true" },
    multipart: { file: { name, mimeType, buffer: Buffer.from(text) } },
  });
  expect(res.status()).toBe(200);
  const e = ((await res.json()) as Upload).entities[0]!;
  expect(e["file-metadata"]["content-type"]).toBe("application/octet-stream");
  return `${base}/chatfiles/${e.uuid}?share-secret=${encodeURIComponent(e["share-secret"])}`;
}

test("a chat file with a script downloads instead of running, and cannot be loaded as a script", async ({
  browser,
  request,
}) => {
  const account = await registerAccount(request, { orgName: "白石数字科技有限公司" });
  const token = await loginToken(request, account);
  const info = (await (
    await request.get("/api/card-user/userInfo", { headers: { "x-auth-token": token } })
  ).json()) as {
    data: { brandInfo: { imToken: string; appKey: string } };
  };
  const [org, app] = info.data.brandInfo.appKey.split("#") as [string, string];
  const base = `/${org}/${app}`;
  const steal = "window.__pwned = localStorage.getItem('x-auth-token') ?? 'ran';";
  const scriptUrl = await upload(request, base, info.data.brandInfo.imToken, "steal.js", "text/javascript", steal);
  const htmlUrl = await upload(
    request,
    base,
    info.data.brandInfo.imToken,
    "invoice.html",
    "text/html",
    `<!doctype html><title>invoice</title><script>${steal}</script><script src="${scriptUrl}"></script>`,
  );

  // The victim, signed in, on the app.
  const page = await sessionPage(browser, account, token);
  await page.goto("/login");
  expect(await page.evaluate(() => localStorage.getItem("x-auth-token"))).toBe(token);
  const pwned = () => page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned);

  // Opening the HTML file's address downloads it; the app's page stays, and nothing ran.
  const download = page.waitForEvent("download");
  await page.evaluate((url) => {
    window.location.href = url;
  }, htmlUrl);
  const file = await download;
  expect(file.suggestedFilename()).toBe("invoice.html");
  expect(page.url()).not.toContain("/chatfiles/");
  expect(await pwned()).toBeUndefined();

  // The response a browser gets: a download under a sandbox, never a document of the app's origin.
  const res = await page.request.get(htmlUrl);
  expect(res.headers()["content-type"]).toBe("application/octet-stream");
  expect(res.headers()["content-disposition"]).toMatch(/^attachment; /);
  expect(res.headers()["x-content-type-options"]).toBe("nosniff");
  expect(res.headers()["content-security-policy"]).toBe("default-src 'none'; sandbox");

  // The uploaded script, pulled into the app's own page by a script tag (the app's CSP allows 'self'):
  // nosniff and its octet-stream type make Chromium refuse to run it.
  const loaded = await page.evaluate(
    (src) =>
      new Promise<string>((resolve) => {
        const s = document.createElement("script");
        s.src = src;
        s.onload = () => resolve("ran");
        s.onerror = () => resolve("refused");
        document.head.appendChild(s);
      }),
    scriptUrl,
  );
  expect(loaded).toBe("refused");
  expect(await pwned()).toBeUndefined();
  await page.context().close();
});
