import { expect, type Locator, type Page } from "@playwright/test";

/**
 * Chooses an option of an Ant Design select and waits until the select shows it. On a loaded machine a
 * click can reach the dropdown while it is still opening or while its options are replaced by a refetch,
 * and the choice is then lost without an error (CI once waited ten minutes on a button that the lost
 * choice left disabled): so the choice is checked and, if lost, made again.
 */
export async function chooseOption(page: Page, select: Locator, optionText: string | RegExp): Promise<void> {
  await expect(async () => {
    const dropdown = page.locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden)");
    if (!(await dropdown.isVisible())) await select.click();
    await dropdown.locator(".ant-select-item-option").filter({ hasText: optionText }).first().click({ timeout: 5_000 });
    // The select may be the combobox inside the .ant-select or (a test id on <Select>) the .ant-select itself;
    // an ancestor comes first in document order.
    await expect(page.locator(".ant-select").filter({ has: select }).or(select).first()).toContainText(optionText, { timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
}
