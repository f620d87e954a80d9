import { expect, type Page } from "@playwright/test";

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
