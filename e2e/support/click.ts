import { expect, type Download, type FileChooser, type Locator, type Page } from "@playwright/test";

/**
 * Clicks that can be lost on a loaded machine, and what makes them safe to repeat. A click that reaches a
 * dialog, drawer or popover during its opening animation, or a row that a refetch moves between
 * Playwright's hit test and the click, is dropped without an error; the journey then waits on what the
 * click should have done: seconds on an assertion, or, on a click or a fill into something that never
 * opened, until the journey's own timeout (minutes). These helpers check the click's effect and click again
 * when it is missing, but only where a second click cannot do the action twice (see each one).
 */

/** A class of an opening (`appear`, `enter`) or closing (`leave`) Ant Design animation (rc-motion's `<name>-appear-active`, ...). */
const OPENING = /-(appear|enter)(-(prepare|start|active))?$/;
const CLOSING = /-leave(-(prepare|start|active))?$/;

/** Whether an element of `panel`, an ancestor or a descendant of one, carries an animation class matching `motion`. */
function animating(panel: Locator, motion: RegExp): Promise<boolean> {
  return panel.evaluateAll((els, source) => {
    const re = new RegExp(source);
    const moving = (e: Element) => [...e.classList].some((c) => re.test(c));
    return els.some((el) => {
      for (let e: Element | null = el; e; e = e.parentElement) if (moving(e)) return true;
      return [...el.querySelectorAll("*")].some(moving);
    });
  }, motion.source);
}

/**
 * Waits until `panel` (a dialog, a drawer, a popover, or something inside one) is visible and done opening:
 * no opening animation on it, its ancestors or its descendants (a drawer animates its content wrapper, a
 * modal its panel).
 */
export async function opened(panel: Locator, timeout = 20_000): Promise<void> {
  await expect(panel).toBeVisible({ timeout });
  await expect
    .poll(() => animating(panel, OPENING), { timeout, message: "the panel finishes its opening animation" })
    .toBe(false);
  await expect(panel).toBeVisible({ timeout: 2_000 });
}

/**
 * Clicks `target` until `done` (assertions with short timeouts) passes. `target` is clicked only while it
 * is visible and enabled, so this suits a button that the action disables or removes (a submit that puts
 * the thing under review, a dialog's OK that closes it), or one that loads while its request runs (Ant
 * Design ignores a click on a loading button), and a click the server refuses until it is time (the
 * mini-program's privacy scan). Not for a button that would do its action twice.
 */
export async function clickUntil(target: Locator, done: () => Promise<unknown>, timeout = 60_000): Promise<void> {
  await expect(async () => {
    if ((await target.isVisible()) && (await target.isEnabled({ timeout: 2_000 }))) {
      await target.click({ timeout: 5_000 });
    }
    await done();
  }).toPass({ timeout, intervals: [1_000, 2_000, 4_000] });
}

/**
 * Opens `panel` (a dialog, a drawer, a popover) with `trigger` and waits until it is done opening. The
 * trigger is clicked again only while the panel is not shown: opening has no effect of its own, and a
 * second click on a popover's trigger while it is open would close it.
 */
export async function openWith(trigger: Locator, panel: Locator, timeout = 60_000): Promise<void> {
  // The same dialog still closing from its last use looks open for a moment: wait until it has closed.
  await expect
    .poll(() => animating(panel, CLOSING), { timeout: 20_000, message: "the panel's last closing animation ends" })
    .toBe(false);
  await expect(async () => {
    if (!(await panel.isVisible())) await trigger.click({ timeout: 5_000 });
    await expect(panel).toBeVisible({ timeout: 8_000 });
  }).toPass({ timeout, intervals: [1_000, 2_000] });
  await opened(panel);
}

/**
 * A popconfirm: opens it with `trigger` and clicks its OK (`ok`: the button's name; by default its primary
 * button) until it closes. While the confirmed action runs the OK button is loading (a click is ignored),
 * and a closing popover takes no clicks (rc-trigger sets pointer-events: none), so the action runs once.
 */
export async function confirmPopconfirm(page: Page, trigger: Locator, ok?: string | RegExp): Promise<void> {
  const popconfirm = page.locator(".ant-popconfirm").filter({ visible: true });
  await openWith(trigger, popconfirm);
  // The OK by its name, or the popconfirm's primary button (its OK in every language).
  const button =
    ok === undefined
      ? popconfirm.locator(".ant-popconfirm-buttons .ant-btn-primary")
      : popconfirm.getByRole("button", { name: ok });
  await clickUntil(button, () => expect(popconfirm).toHaveCount(0, { timeout: 3_000 }), 30_000);
}

/**
 * Closes `panel` (a dialog, a drawer, a select's list) with Escape, pressed again while it is still open:
 * an Escape before the panel has the focus is lost, and a dialog left open then covers what the journey
 * clicks next (a click that waits until the journey's timeout). `panel` is best something inside the
 * panel (a locator that matches nothing counts as closed, so a wrong container would pass unnoticed).
 */
export async function closeWithEscape(page: Page, panel: Locator): Promise<void> {
  await expect(panel).toBeVisible();
  await expect(async () => {
    if (await panel.isVisible()) await page.keyboard.press("Escape");
    await expect(panel).toBeHidden({ timeout: 3_000 });
  }).toPass({ timeout: 30_000, intervals: [500, 1_000, 2_000] });
}

/**
 * Clicks `trigger` until `wait` (a page event with a bounded wait) fires, and returns the event: a page's
 * download and file-chooser events have no timeout of their own, so a lost click would wait until the
 * journey's timeout.
 */
async function clickForEvent<T>(trigger: Locator, wait: () => Promise<T>): Promise<T> {
  let event: T | undefined;
  await expect(async () => {
    [event] = await Promise.all([wait(), trigger.click({ timeout: 5_000 })]);
  }).toPass({ timeout: 60_000, intervals: [1_000] });
  if (event === undefined) throw new Error("the click started nothing");
  return event;
}

/** A download `trigger` starts (exports, templates, files change nothing, so a second one is harmless). */
export function downloadWith(page: Page, trigger: Locator): Promise<Download> {
  return clickForEvent(trigger, () => page.waitForEvent("download", { timeout: 15_000 }));
}

/** The file chooser `trigger` opens. */
export function fileChooserWith(page: Page, trigger: Locator): Promise<FileChooser> {
  return clickForEvent(trigger, () => page.waitForEvent("filechooser", { timeout: 10_000 }));
}
