import { expect, type Locator, type Page } from "@playwright/test";
import { clickUntil, closeWithEscape, openWith } from "./click";
import { answerConfirm, confirmMoney } from "./confirm";
import { chooseOption } from "./select";

/**
 * Page objects for the three shapes the back office is made of: a list page (search form, table rows,
 * pager), a form dialog (a modal with fields, selects and a submit) and a drawer (details beside a list).
 * They are thin: each step is one of the safe click helpers (click.ts, confirm.ts, select.ts), named for
 * what a user does, so a journey reads as the user's steps and a lost click is handled once.
 */

/** The default name of a search form's submit button ("查询", Ant Design puts a space between two CJK characters). */
const SEARCH = /查\s?询/;
const OK = /确\s?定/;

/** A list page: a search form over a table of rows, with a pager. */
export class ListPage {
  constructor(
    readonly page: Page,
    /** The part of the page holding the form and the table (the whole page by default). */
    readonly root: Locator = page.locator("body"),
  ) {}

  /** Opens the page at `url`. */
  async goto(url: string): Promise<this> {
    await this.page.goto(url);
    return this;
  }

  /** The table's rows (Ant Design's `.ant-table-row`). */
  get rows(): Locator {
    return this.root.locator(".ant-table-row");
  }

  /** The rows showing `text`. */
  row(text: string | RegExp): Locator {
    return this.rows.filter({ hasText: text });
  }

  /** A search field by its label (an input). */
  field(label: string | RegExp): Locator {
    return this.root.getByLabel(label);
  }

  /** Chooses an option of a search select (a combobox by its accessible name, or the select's locator). */
  async choose(select: string | RegExp | Locator, option: string | RegExp, options?: { search?: boolean }) {
    const locator =
      typeof select === "string" || select instanceof RegExp
        ? this.root.getByRole("combobox", { name: select })
        : select;
    await chooseOption(this.page, locator, option, options);
  }

  /**
   * Runs the search: clicks the search button until `done` (assertions with short timeouts: the URL
   * carries the query, the rows changed) passes. Searching twice is harmless.
   */
  async search(done: () => Promise<unknown>, button: string | RegExp = SEARCH): Promise<void> {
    await clickUntil(this.root.getByRole("button", { name: button }), done);
  }

  /** The pager under the table. */
  get pager(): Locator {
    return this.root.locator(".ant-pagination");
  }

  /** Goes to page `n` of the table and waits until the pager shows it. */
  async toPage(n: number): Promise<void> {
    const item = this.pager.locator(`.ant-pagination-item-${n}`);
    await clickUntil(item, () => expect(item).toHaveClass(/ant-pagination-item-active/, { timeout: 3_000 }));
  }

  /** The next page of the table. */
  async nextPage(): Promise<void> {
    const active = Number(await this.pager.locator(".ant-pagination-item-active").getAttribute("title"));
    await this.toPage(active + 1);
  }
}

/** A form dialog: an Ant Design modal with a form, found by its title (or text it shows). */
export class FormDialog {
  readonly root: Locator;

  constructor(
    readonly page: Page,
    title: string | RegExp,
  ) {
    this.root = page.locator(".ant-modal").filter({ hasText: title });
  }

  /** Opens the dialog with `trigger` and waits until it is done opening (openWith). */
  async open(trigger: Locator): Promise<this> {
    await openWith(trigger, this.root);
    return this;
  }

  /** A field of the form: by test id, or by the form item's id (`#name`) when `by` is "id". */
  field(name: string, by: "testId" | "id" = "testId"): Locator {
    return by === "id" ? this.root.locator(`#${name}`) : this.root.getByTestId(name);
  }

  /** Fills fields: test id (or `#id` when `by` is "id") to value. */
  async fill(values: Record<string, string>, by: "testId" | "id" = "testId"): Promise<void> {
    for (const [name, value] of Object.entries(values)) await this.field(name, by).fill(value);
  }

  /** Chooses an option of one of the dialog's selects (by its accessible name, or the select's locator). */
  async pick(select: string | RegExp | Locator, option: string | RegExp, options?: { search?: boolean }) {
    const locator =
      typeof select === "string" || select instanceof RegExp
        ? this.root.getByRole("combobox", { name: select })
        : select;
    await chooseOption(this.page, locator, option, options);
  }

  /** The dialog's button named `name` (its OK by default). */
  button(name: string | RegExp = OK): Locator {
    return this.root.getByRole("button", { name });
  }

  /**
   * Submits the form with its button (OK by default) once. With `confirm`, the submit asks first (a confirm
   * dialog) and that question is answered with the button matching `confirm`; with `money`, the question
   * names an amount and is answered once (confirmMoney: it pays, so it is never repeated).
   */
  async submit(
    options: {
      button?: string | RegExp;
      confirm?: RegExp;
      money?: Parameters<typeof confirmMoney>[2];
    } = {},
  ): Promise<void> {
    const button = this.button(options.button);
    if (options.money) {
      await confirmMoney(this.page, button, options.money);
      return;
    }
    await button.click();
    if (options.confirm) await answerConfirm(this.page, options.confirm);
  }

  /** Submits by clicking the button until `done` passes: for a submit that closes or disables itself (clickUntil). */
  async submitUntil(done: () => Promise<unknown>, button: string | RegExp = OK): Promise<void> {
    await clickUntil(this.button(button), done);
  }
}

/** A drawer: Ant Design's `.ant-drawer`, optionally the one showing `title`. */
export class Drawer {
  readonly root: Locator;

  constructor(
    readonly page: Page,
    title?: string | RegExp,
  ) {
    const drawers = page.locator(".ant-drawer");
    this.root = title === undefined ? drawers : drawers.filter({ hasText: title });
  }

  /** Opens the drawer with `trigger` and waits until it is done opening (openWith). */
  async open(trigger: Locator): Promise<this> {
    await openWith(trigger, this.root);
    return this;
  }

  /** Something inside the drawer, by test id. */
  get(testId: string): Locator {
    return this.root.getByTestId(testId);
  }

  /** The drawer's text. */
  read(): Promise<string> {
    return this.root.innerText();
  }

  /**
   * Closes the drawer: its close button, clicked until it is hidden (a drawer left open covers the list's
   * rows, and the next click would wait until the journey's timeout); with `escape`, the Escape key.
   */
  async close(options: { escape?: boolean } = {}): Promise<void> {
    if (options.escape) await closeWithEscape(this.page, this.root.locator(".ant-drawer-body"));
    else {
      await clickUntil(this.root.locator(".ant-drawer-close"), () => expect(this.root).toBeHidden({ timeout: 3_000 }));
    }
  }
}
