import { expect, test } from "@playwright/test";
import { SERVER_URLS } from "../playwright.config";
import { reportedCspViolations, watchCsp } from "../support/csp";

/**
 * The security headers' Content-Security-Policy (issue 24 item 8) holds for what the journeys do. The
 * pages this file opens are watched in the browser; every other journey's pages report violations to
 * the servers (report-uri), read at the end: the config runs this file after all the others.
 */
test("the web app and the API docs page run under the CSP with no violation, and no journey reported one", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000); // three full page loads, the docs page with every operation
  const violations = await watchCsp(page);
  const res = await page.goto("/login");
  const csp = res?.headers()["content-security-policy"] ?? "";
  expect(csp).toContain("frame-ancestors 'none'");
  expect(res?.headers()["x-content-type-options"]).toBe("nosniff");
  await expect(page.getByRole("banner")).toBeVisible({ timeout: 30_000 });
  await page.goto("/dev/mailbox");
  await expect(page.locator(".ant-table")).toBeVisible({ timeout: 30_000 });
  await page.goto("/api/docs");
  await expect(page.getByRole("heading", { name: /Tessera API/ })).toBeVisible({ timeout: 60_000 });
  expect(violations).toEqual([]);

  expect(await reportedCspViolations(request, SERVER_URLS), "CSP violations reported during the journeys").toEqual([]);
});
