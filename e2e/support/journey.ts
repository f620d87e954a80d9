import path from "node:path";
import {
  expect,
  type APIRequestContext,
  type Browser,
  type BrowserContextOptions,
  type Locator,
  type Page,
} from "@playwright/test";

/** A merchant account of the domestic version (for sessionPage when a journey has only a token). */
export const DOMESTIC = { version: "domestic" } as const;
import type { Account } from "./api";

const SHOTS = path.resolve(import.meta.dirname, "../artifacts/screenshots");

/** A journey's screenshots, named `<prefix>-<name>.png`, taken once the page's loading overlay is gone. */
export function screenshots(prefix: string): (page: Page, name: string) => Promise<void> {
  return async (page, name) => {
    await expect(page.locator(".ant-spin-fullscreen.ant-spin-spinning")).toHaveCount(0);
    await page.screenshot({ path: path.join(SHOTS, `${prefix}-${name}.png`), fullPage: true });
  };
}

/** POSTs a call and returns its data; anything but success fails the journey with the server's message. */
export async function post<T>(request: APIRequestContext, token: string, url: string, data: unknown): Promise<T> {
  const res = await request.post(url, { headers: { "x-auth-token": token }, data });
  const body = (await res.json()) as { code: number; msg: string; data: T };
  expect(body.code, `${url}: ${body.msg}`).toBe(1);
  return body.data;
}

/**
 * A page with the account's session stored as the login dialog stores it (international accounts under
 * their own key), in a new context (zh-CN, `width`×900; `options` adds to or replaces those).
 */
export async function sessionPage(
  browser: Browser,
  account: Pick<Account, "version">,
  token: string,
  width = 1280,
  options: BrowserContextOptions = {},
): Promise<Page> {
  const context = await browser.newContext({ locale: "zh-CN", viewport: { width, height: 900 }, ...options });
  await context.addInitScript(
    ([key, value]) => {
      if (window.location.protocol.startsWith("http")) window.localStorage.setItem(key, value);
    },
    [account.version === "international" ? "interToken" : "x-auth-token", token] as const,
  );
  return context.newPage();
}

/** Today's day of the month as the platform counts days (UTC+8), and the month `back` months before (YYYY-MM). */
export function platformMonth(back: number): { day: number; month: string } {
  const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
  const [y, m, d] = today.split("-").map(Number) as [number, number, number];
  const index = y * 12 + m - 1 - back;
  return { day: d, month: `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}` };
}

/** Types a date into an Ant Design date picker (in the picker's own format) and accepts it. */
export async function pickDate(input: Locator, value: string): Promise<void> {
  await input.click();
  await input.fill(value);
  await input.press("Enter");
  await expect(input).toHaveValue(value);
}
