import type { ModalFuncProps, PopconfirmProps } from "antd";
import type { ReactNode } from "react";
import type { Money } from "@tessera/contracts";
import { formatMoney } from "./money";

/**
 * Confirmations of actions that move money and cannot be taken back (issue 37): paying, activating cards,
 * refunding, approving a refund, a batch purchase. Every one says the same three things: the action, the
 * amount (formatted with formatMoney), and what happens to the money in plain words.
 */

/** Amounts in several currencies (a batch for purchasers of different markets) are joined with " + ". */
export function moneyText(amount: Money | readonly Money[]): string {
  const all: readonly Money[] = Array.isArray(amount) ? amount : [amount as Money];
  return all.length === 0 ? "—" : all.map(formatMoney).join(" + ");
}

/** The title of a money confirmation: the action and its amount, "付款 · ¥596.00" (the pattern of ops/Withdrawals). */
export function moneyTitle(action: string, amount: Money | readonly Money[]): string {
  return `${action} · ${moneyText(amount)}`;
}

export interface MoneyConfirm {
  /** The action as its button names it; also the confirming button's text. */
  action: string;
  amount: Money | readonly Money[];
  /** What happens to the money, in plain words, the amount included ("¥596.00 is paid from your SUP account…"). */
  effect: ReactNode;
  /** A confirmation that sends money away from the one confirming (a refund) is red. */
  danger?: boolean;
  /** The confirming button's `data-testid`. */
  testId?: string;
}

/** What `modal.confirm` takes (App.useApp().modal), without depending on which of antd's modal APIs it is. */
interface ModalApi {
  confirm(props: ModalFuncProps): unknown;
}

/**
 * Asks with `modal.confirm` and runs `onOk` only on the answer: the dialog's button loads while `onOk`
 * runs (antd runs it once, whatever is clicked meanwhile) and the dialog closes when it ends.
 */
export function confirmMoney(modal: ModalApi, c: MoneyConfirm & { onOk: () => Promise<unknown> }): void {
  modal.confirm({
    title: moneyTitle(c.action, c.amount),
    content: c.effect,
    okText: c.action,
    okButtonProps: { danger: c.danger ?? false, ...(c.testId && { "data-testid": c.testId }) },
    className: "money-confirm",
    width: 460,
    onOk: async () => {
      await c.onOk();
    },
  });
}

/** The same words for an action the page already confirms with a Popconfirm. */
export function moneyPopconfirm(
  c: MoneyConfirm,
): Pick<PopconfirmProps, "title" | "description" | "okText" | "okButtonProps" | "overlayStyle"> {
  return {
    title: moneyTitle(c.action, c.amount),
    description: c.effect,
    okText: c.action,
    okButtonProps: { danger: c.danger ?? false, ...(c.testId && { "data-testid": c.testId }) },
    overlayStyle: { maxWidth: 380 },
  };
}
