import type { Tx } from "../../db/tx";
import { conflict } from "../../platform/http/errors";
import * as repo from "./repo";

/**
 * What other modules (the mini-program mall) may read and do with the customers' cards, so they never
 * touch onecard's tables themselves: a card's owner and brand, a customer's usable cards of a brand,
 * customers' phones, and the credit that gives a refund back onto the card it was paid with.
 *
 * A card's balance is the brand's stored-value debt to the card holder, kept on the card and in its moves
 * (onecard_moves, the card's own journal, checked by `invariantProblems`): the platform ledger moved the
 * money once, at activation (order escrow → the brand's income). Paying with a card and refunding onto it
 * are moves of that journal, under the card's row lock, once per request key.
 */

/**
 * Gives `amount` back onto a card, reversing the debit recorded under `debitKey` (never more than it
 * took), in the caller's transaction under the card's lock: balance restored and a `refund` move with
 * `requestKey`. The same request key again finds its move and changes nothing.
 */
export async function creditCard(
  tx: Tx,
  req: { cardId: number; amount: number; requestKey: string; debitKey: string; note: string },
  now: Date,
): Promise<{ balance: number; replayed: boolean }> {
  const card = await repo.lockCard(tx, req.cardId);
  if (!card) throw conflict("onecard.cardUnknown");
  const first = await repo.moveByKey(tx, req.cardId, req.requestKey);
  if (first) return { balance: card.balance, replayed: true };
  const debit = await repo.moveByKey(tx, req.cardId, req.debitKey);
  if (!debit || debit.amount >= 0 || req.amount <= 0 || req.amount > -debit.amount) {
    throw conflict("onecard.refundExceeds");
  }
  if (card.state === "issued" || card.state === "sold") throw conflict("onecard.notActivated");
  const after = card.balance + req.amount;
  await repo.setBalance(tx, req.cardId, after);
  await repo.addMove(tx, {
    cardId: req.cardId,
    kind: "refund",
    amount: req.amount,
    balanceAfter: after,
    requestKey: req.requestKey,
    note: req.note,
    now,
  });
  return { balance: after, replayed: false };
}
