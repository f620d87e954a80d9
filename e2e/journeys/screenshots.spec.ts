import { expect, test, type Page } from "@playwright/test";
import path from "node:path";
import { loginToken, openRegisterFromLogin, registerAccount, useSession, type Account } from "../support/api";
import { noteMissingFonts } from "../support/fonts";
import { opened } from "../support/click";

/** Journey (e): screenshots of the main screens in the three languages, into e2e/artifacts/screenshots. */
const DIR = path.resolve(import.meta.dirname, "../artifacts/screenshots");
test.beforeEach(noteMissingFonts); // screenshots for people: a missing font is noted on the result
const LANGS = [
  {
    lang: "cn",
    register: "立即注册",
    registerTitle: "注册企业账户",
    intlRegisterTitle: "注册国际版企业账户",
    chooserTitle: "选择要进入的系统",
  },
  {
    lang: "tw",
    register: "立即註冊",
    registerTitle: "註冊企業賬戶",
    intlRegisterTitle: "註冊國際版企業賬戶",
    chooserTitle: "選擇要進入的系統",
  },
  {
    lang: "en",
    register: "Register now",
    registerTitle: "Register a business account",
    intlRegisterTitle: "Register an international business account",
    chooserTitle: "Choose a system",
  },
] as const;

async function shot(page: Page, name: string): Promise<void> {
  await page.waitForLoadState("networkidle");
  // A dialog shown is done opening (mid-animation it is drawn half-faded and scaled).
  const dialog = page.locator(".ant-modal").filter({ visible: true });
  if (await dialog.count()) await opened(dialog.first());
  await page.screenshot({ path: path.join(DIR, `${name}.png`) });
}

let domestic: Account;
let international: Account;
test.beforeAll(async ({ request }) => {
  domestic = await registerAccount(request);
  international = await registerAccount(request, { version: "international" });
});

for (const { lang, register, registerTitle, intlRegisterTitle, chooserTitle } of LANGS) {
  test(`screens in ${lang}`, async ({ page, request }) => {
    await page.addInitScript((l) => window.localStorage.setItem("lang", l), lang);

    await page.goto("/login");
    await expect(page.locator(".ant-modal")).toBeVisible();
    await shot(page, `login-${lang}`);
    // The register dialog, opened again if the click fell into the login dialog's opening animation.
    await openRegisterFromLogin(page, register, registerTitle);
    await shot(page, `register-${lang}`);

    await page.goto("/international/INlogin");
    await expect(page.locator(".ant-modal")).toBeVisible();
    await shot(page, `intl-login-${lang}`);
    await openRegisterFromLogin(page, register, intlRegisterTitle);
    await shot(page, `intl-register-${lang}`);

    await useSession(page, domestic, await loginToken(request, domestic));
    await page.goto("/SelectUser");
    await expect(page.getByText(chooserTitle)).toBeVisible();
    await shot(page, `chooser-${lang}`);
    await page.goto("/sale/Home");
    await expect(page.getByTestId("merchant-id")).toHaveText(domestic.merchantId);
    await shot(page, `sale-home-${lang}`);
    await page.goto("/business/Home");
    await expect(page.getByTestId("merchant-id")).toHaveText(domestic.merchantId);
    await shot(page, `business-home-${lang}`);

    await useSession(page, international, await loginToken(request, international));
    await page.goto("/international/sale/Home");
    await expect(page.getByTestId("merchant-id")).toHaveText(international.merchantId);
    await shot(page, `intl-sale-home-${lang}`);
    await page.goto("/international/business/Home");
    await expect(page.getByTestId("merchant-id")).toHaveText(international.merchantId);
    await shot(page, `intl-business-home-${lang}`);
  });
}
