import type { Insertable } from "kysely";
import type { Executor } from "../../db/tx";
import type { OrderChatsTable } from "./tables";

/** SQL of the order conversations' records (order_chats): one per order, its opening message kept once. */

/** The order's record, unless it has one already. */
export async function insertChat(tx: Executor, row: Insertable<OrderChatsTable>): Promise<void> {
  await tx
    .insertInto("order_chats")
    .values(row)
    .onConflict((oc) => oc.column("order_id").doNothing())
    .execute();
}

export function chatOf(db: Executor, orderId: number) {
  return db.selectFrom("order_chats").selectAll().where("order_id", "=", orderId).executeTakeFirst();
}

export function chatOfOrThrow(db: Executor, orderId: number) {
  return db.selectFrom("order_chats").selectAll().where("order_id", "=", orderId).executeTakeFirstOrThrow();
}

/** Keeps the conversation's opening message, once: a record that has one keeps it. */
export async function setOpeningMessage(db: Executor, orderId: number, messageId: number): Promise<void> {
  await db
    .updateTable("order_chats")
    .set({ message_id: messageId })
    .where("order_id", "=", orderId)
    .where("message_id", "is", null)
    .execute();
}
