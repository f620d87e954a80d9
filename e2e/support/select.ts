import { expect, type Locator, type Page } from "@playwright/test";

/** What the select shows as chosen: its text without the placeholder and the search box's width mirror. */
function shownText(root: Locator): Promise<string> {
  return root.evaluate(
    (el) => {
      const copy = el.cloneNode(true) as Element;
      for (const extra of copy.querySelectorAll("[class*=placeholder], [class*=mirror]")) extra.remove();
      return (copy.textContent ?? "").replace(/\s+/g, " ");
    },
    undefined,
    { timeout: 5_000 },
  );
}

/**
 * Chooses an option of an Ant Design select and waits until the select shows it. On a loaded machine a
 * click can reach the dropdown while it is still opening or while its options are replaced by a refetch,
 * and the choice is then lost without an error (CI once waited ten minutes on a button that the lost
 * choice left disabled; CI once clicked a province during the list's opening, and the city list it needs
 * never came): so the choice is checked and, if lost, made again. The option is looked for in the select's
 * own list (the one its combobox controls): the list of a select chosen just before can still be closing.
 * A multiple select's option already chosen is not clicked again (that would remove it).
 *
 * `search`: types the option's text into the select's search box first (when it has one: a select without
 * search ignores it), for long lists (regions, couriers) whose option may be outside the rendered part of
 * the virtual list. Only for selects that filter by the label: a select filters by the option's value
 * unless told otherwise, and would then find nothing.
 */
export async function chooseOption(
  page: Page,
  select: Locator,
  optionText: string | RegExp,
  options: { search?: boolean } = {},
): Promise<void> {
  // The select may be the combobox inside the .ant-select or (a test id on <Select>) the .ant-select itself:
  // the nearest .ant-select at or above it.
  const root = select.locator(
    "xpath=ancestor-or-self::*[contains(concat(' ', normalize-space(@class), ' '), ' ant-select ')][1]",
  );
  const combobox = root.getByRole("combobox");
  const shows = async () => {
    const text = await shownText(root);
    return typeof optionText === "string" ? text.includes(optionText) : optionText.test(text);
  };
  await expect(async () => {
    if (await shows()) return;
    if ((await combobox.getAttribute("aria-controls", { timeout: 5_000 })) === null) {
      await select.click({ timeout: 5_000 });
    }
    await expect(combobox).toHaveAttribute("aria-controls", /./, { timeout: 5_000 });
    const listId = (await combobox.getAttribute("aria-controls", { timeout: 2_000 })) ?? "";
    const dropdown = page.locator(".ant-select-dropdown").filter({ has: page.locator(`[id="${listId}"]`) });
    if (options.search && typeof optionText === "string" && (await combobox.isEditable({ timeout: 2_000 }))) {
      await combobox.fill(optionText, { timeout: 5_000 });
    }
    const option = dropdown.locator(".ant-select-item-option").filter({ hasText: optionText }).first();
    await expect(option).toBeVisible({ timeout: 5_000 });
    const multiple = await root.evaluate((el) => el.classList.contains("ant-select-multiple"), undefined, {
      timeout: 2_000,
    });
    const chosenAlready =
      multiple &&
      (await option.evaluate((el) => el.classList.contains("ant-select-item-option-selected"), undefined, {
        timeout: 2_000,
      }));
    if (!chosenAlready) await option.click({ timeout: 5_000 });
    await expect.poll(shows, { timeout: 2_000 }).toBe(true);
  }).toPass({ timeout: 60_000 });
}
