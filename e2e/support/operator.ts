import { expect, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { clickUntil } from "./click";

/** The platform operator the e2e server creates at first start (OPS_EMAIL / OPS_PASSWORD). */
export const E2E_OPERATOR = { email: "ops@tessera.local", password: "Operator#2026" } as const;

/** A browser page of the operator console, logged in through its login page (lands on the review queues). */
export async function operatorPage(
  browser: Browser,
  who: { email: string; password: string } = E2E_OPERATOR,
): Promise<Page> {
  const page = await (await browser.newContext({ locale: "zh-CN" })).newPage();
  await page.goto("/ops/login");
  await page.getByTestId("ops-email").fill(who.email);
  await page.getByTestId("ops-password").fill(who.password);
  // Logging in twice is harmless: made again if the click was lost.
  await clickUntil(page.getByTestId("ops-login"), () => expect(page).toHaveURL(/\/ops\/Reviews/, { timeout: 10_000 }));
  return page;
}

/** The e2e operator's token, logged in through the API (for the operator's calls: credits, approvals). */
export async function operatorToken(request: APIRequestContext): Promise<string> {
  const res = await request.post("/api/card-user/login", { data: { ...E2E_OPERATOR, version: "domestic" } });
  return ((await res.json()) as { data: { token: string } }).data.token;
}
