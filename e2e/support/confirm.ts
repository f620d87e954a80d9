import { expect, type Locator, type Page } from "@playwright/test";
import { opened, openWith } from "./click";

/**
 * Answers an Ant Design confirm dialog with one of its buttons and waits until the dialog is gone. A
 * click during the dialog's opening animation was lost more than once on a loaded machine (no request
 * left the page; CI's invoice and withdrawal journeys): so the button is clicked until the dialog closes.
 * While the dialog's request runs its button is loading, so a second click sends nothing twice.
 */
export async function answerConfirm(page: Page, button: RegExp): Promise<void> {
  const confirm = page.locator(".ant-modal-confirm");
  await expect(confirm).toBeVisible();
  await expect(async () => {
    if (await confirm.isVisible()) await confirm.getByRole("button", { name: button }).click({ timeout: 2_000 });
    await expect(confirm).toBeHidden({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
}

/**
 * A confirmation before money moves (issue 37): a confirm dialog (or, with `popconfirm`, the Popconfirm the
 * page uses for that action) that names the amount. `open` is the button that asks (clicked again only
 * while nothing is shown), or a function that makes the page ask. Checks that the question shows `amount`,
 * lets `look` see it (a screenshot), then clicks `ok` once, after the opening animation: that click pays,
 * refunds or orders, so it is never repeated.
 */
export async function confirmMoney(
  page: Page,
  open: Locator | (() => Promise<unknown>),
  {
    amount,
    ok,
    popconfirm = false,
    look,
  }: { amount: string; ok: string | RegExp; popconfirm?: boolean; look?: () => Promise<void> },
): Promise<void> {
  const question = page.locator(popconfirm ? ".ant-popconfirm" : ".ant-modal-confirm").filter({ visible: true });
  if (typeof open === "function") {
    await open();
    await opened(question);
  } else {
    await openWith(open, question);
  }
  await expect(question).toContainText(amount);
  if (look) await look();
  await question.getByRole("button", { name: ok }).click();
  await expect(question).toBeHidden({ timeout: 30_000 });
}
