import path from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { apiCall, loginToken, registerAccount, useSession, type Account } from "../support/api";
import { noteMissingFonts } from "../support/fonts";
import { operatorToken } from "../support/operator";
import { clickUntil } from "../support/click";

/**
 * Every page of every menu at 1280 and 1440 px (issue 25 item 4): with E2E_LIST_SHOTS=1 each is screenshotted
 * at both widths into e2e/artifacts/screenshots/lists, and at 1280 px, the narrower, its tables are checked for what a
 * newcomer hit: the page never scrolls sideways, no column header breaks inside a word, a table that
 * scrolls sideways keeps its action column fixed on the right, and the search bar's buttons and icons
 * share one line. Named zz- so it runs after the other journeys and the operator's lists hold their data.
 */
const SHOTS = path.resolve(import.meta.dirname, "../artifacts/screenshots/lists");
test.beforeEach(noteMissingFonts);

interface LayoutProblems {
  pageOverflow: number;
  wrappedHeaders: string[];
  hiddenActions: string[];
  searchBarLines: number;
}

/** What the page's layout breaks, read in the browser. */
function layoutProblems(page: Page): Promise<LayoutProblems> {
  return page.evaluate(() => {
    const lineTops = (el: Element): number => {
      const tops = new Set<number>();
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent?.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const r of range.getClientRects()) if (r.width > 0) tops.add(Math.round(r.top / 4));
      }
      return tops.size;
    };
    const wrappedHeaders = [...document.querySelectorAll("th.ant-table-cell")]
      .filter((th) => (th as HTMLElement).offsetParent !== null && lineTops(th) > 1)
      .map((th) => th.textContent ?? "");
    const hiddenActions: string[] = [];
    for (const table of document.querySelectorAll(".ant-table")) {
      const scroller = table.querySelector(".ant-table-content, .ant-table-body");
      const box = (scroller ?? table).getBoundingClientRect();
      for (const th of table.querySelectorAll("thead th.ant-table-cell")) {
        const text = (th.textContent ?? "").trim();
        if (!/^(操作|Actions?|Operation)$/.test(text)) continue;
        const r = th.getBoundingClientRect();
        const fixed =
          th.classList.contains("ant-table-cell-fix-right") || th.classList.contains("ant-table-cell-fix-end");
        if (!fixed && (r.right > box.right + 1 || r.right > window.innerWidth)) hiddenActions.push(text);
      }
    }
    const bar = document.querySelector("[data-testid=search-icons]")?.closest(".ant-space");
    const searchBarLines = bar
      ? new Set([...bar.children].map((c) => Math.round(c.getBoundingClientRect().top / 8))).size
      : 1;
    return {
      pageOverflow: document.documentElement.scrollWidth - window.innerWidth,
      wrappedHeaders,
      hiddenActions,
      searchBarLines,
    };
  });
}

/** The page's data is in: no spinner or skeleton left (react-query shows one while a list loads). */
async function settled(page: Page): Promise<void> {
  await expect(page.locator(".ant-spin-spinning")).toHaveCount(0, { timeout: 15_000 });
  await expect(page.locator(".ant-skeleton-active")).toHaveCount(0, { timeout: 15_000 });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/** Visits every menu entry of an area and checks and screenshots each page. */
async function walkArea(
  browser: Browser,
  account: Account | null,
  token: string,
  base: string,
  storageKey?: string,
): Promise<string[]> {
  const context = await browser.newContext({ locale: "zh-CN", viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  if (account) await useSession(page, account, token);
  else {
    await page.goto("/login");
    await page.evaluate(([k, v]) => window.localStorage.setItem(k, v), [storageKey ?? "x-auth-token", token] as const);
  }
  await page.goto(base);
  await expect(page.locator("aside .ant-menu")).toBeVisible();
  const hrefs = await page
    .locator(`aside .ant-menu a[href^="${base}/"]`)
    .evaluateAll((as) => [...new Set(as.map((a) => a.getAttribute("href") ?? ""))]);
  expect(hrefs.length, `${base} has menu entries`).toBeGreaterThan(3);
  const problems: string[] = [];
  for (const href of hrefs) {
    await page.setViewportSize({ width: 1280, height: 900 });
    // Through the menu, as a user goes: the app stays loaded between pages.
    // Just after the viewport changed the menu may still move under the click, which is then lost (and a
    // bare wait for the URL would wait for the journey's 15 minutes): clicked until the page changes.
    await clickUntil(page.locator(`aside .ant-menu a[href="${href}"]`), () =>
      expect(page).toHaveURL(href, { timeout: 10_000 }),
    );
    await page.waitForURL(href);
    await settled(page);
    const name = href.replace(/^\//, "").replaceAll("/", "-");
    const found = await layoutProblems(page);
    if (found.pageOverflow > 1) problems.push(`${href}: the page scrolls sideways by ${found.pageOverflow} px`);
    if (found.wrappedHeaders.length) {
      problems.push(`${href}: headers break inside a word: ${found.wrappedHeaders.join(", ")}`);
    }
    if (found.hiddenActions.length) problems.push(`${href}: the action column is off the table's edge`);
    if (found.searchBarLines > 1) problems.push(`${href}: the search bar's buttons take ${found.searchBarLines} lines`);
    // The checks hold at the narrower width; the screenshots (to look at, at 1280 and 1440 px) on request, as
    // they cost CI minutes over some two hundred pages: E2E_LIST_SHOTS=1.
    if (process.env.E2E_LIST_SHOTS === "1") {
      await page.screenshot({ path: path.join(SHOTS, `${name}-1280.png`) });
      await page.setViewportSize({ width: 1440, height: 900 });
      await settled(page); // the tables lay out again
      await page.screenshot({ path: path.join(SHOTS, `${name}-1440.png`) });
    }
  }
  await context.close();
  return problems;
}

test("every menu page fits 1280 and 1440 px: no sideways page, whole headers, reachable actions, a one-line search bar", async ({
  browser,
  request,
}) => {
  test.setTimeout(900_000);
  const ops = await operatorToken(request);
  const merchant = await registerAccount(request, { orgName: "列表页面检查有限公司" });
  await apiCall(request, ops, "post", `/api/ops/merchants/${merchant.merchantId}/providerRole`, { grant: true });
  const token = await loginToken(request, merchant);
  const intl = await registerAccount(request, {
    version: "international",
    country: "HK",
    currency: "USD",
    orgName: "List Check Ltd.",
  });
  const intlToken = await loginToken(request, intl);

  const problems = [
    ...(await walkArea(browser, merchant, token, "/sale")),
    ...(await walkArea(browser, merchant, token, "/business")),
    ...(await walkArea(browser, merchant, token, "/providers")),
    ...(await walkArea(browser, intl, intlToken, "/international/sale")),
    ...(await walkArea(browser, intl, intlToken, "/international/business")),
    ...(await walkArea(browser, null, ops, "/ops")),
  ];
  expect(problems).toEqual([]);
});
