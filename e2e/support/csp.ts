import type { APIRequestContext, Page } from "@playwright/test";

/**
 * Content-Security-Policy violations seen by the browser (the server sends the policy, see
 * apps/server/src/platform/http/security.ts): the page's DOM `securitypolicyviolation` events and
 * Chromium's console messages about the policy, collected in a list a journey asserts is empty.
 */
export async function watchCsp(page: Page): Promise<string[]> {
  const seen: string[] = [];
  page.on("console", (msg) => {
    if (/Content Security Policy/i.test(msg.text())) seen.push(`${page.url()}: ${msg.text()}`);
  });
  await page.exposeBinding(
    "__tesseraCspViolation",
    (_source, line: string) => void seen.push(`${page.url()}: ${line}`),
  );
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      const report = (window as unknown as { __tesseraCspViolation?: (line: string) => void }).__tesseraCspViolation;
      report?.(`${e.effectiveDirective} blocked ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`);
    });
  });
  return seen;
}

/**
 * The violations browsers reported to the servers during the whole run (`report-uri`, counted in the
 * loopback-only /metrics as tessera_csp_violations_total): every journey's pages, in every context, on
 * every worker's server.
 */
export async function reportedCspViolations(
  request: APIRequestContext,
  serverUrls: readonly string[],
): Promise<string[]> {
  const perServer = await Promise.all(
    serverUrls.map(async (url) => {
      const lines = (await (await request.get(`${url}/metrics`)).text()).split("\n");
      return lines.filter((l) => l.startsWith("tessera_csp_violations_total{")).map((l) => `${url} ${l}`);
    }),
  );
  return perServer.flat();
}
