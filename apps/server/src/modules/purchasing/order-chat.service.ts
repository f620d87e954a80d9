import { CODE, type ChatMessageReply, type ImMessagePayload, type OrderChat } from "@tessera/contracts";
import { withTx, type Db } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import type { Clock } from "../../platform/clock";
import { AppError, conflict, forbidden } from "../../platform/http/errors";
import { getMerchant } from "../merchants";
import * as chats from "./order-chat.repo";
import * as ordersRepo from "./orders.repo";

/**
 * The brand chat's order conversation (spec 03 §3 orderChat record, spec 01 §7 `GET supplyOrder/im` and a
 * chat message by messageId). The purchaser's staff member chats as `u<userId>`, the supplier as the brand
 * `b<merchantId>`; only the two parties of an order see its record and their messages.
 */

/** A stored chat message, as the IM service keeps it (read through the IM module, wired in app.ts). */
export interface StoredChatMessage {
  id: number;
  chat_type: string;
  from_user: string;
  to_target: string;
  created_ms: number;
  payload: ImMessagePayload;
  recalled_at: Date | null;
}

export interface OrderChatDeps {
  db: Db;
  clock: Clock;
  /** A chat message by its server id. */
  messageOf: (id: number) => Promise<StoredChatMessage | undefined>;
}

const userIm = (userId: number | string) => `u${userId}`;
const brandIm = (merchantId: number | string) => `b${merchantId}`;
const orderNotFound = () => new AppError(CODE.NOT_FOUND, "order.notFound");
const messageNotFound = () => new AppError(CODE.NOT_FOUND, "orderChat.messageNotFound");

export class OrderChatService {
  constructor(private readonly deps: OrderChatDeps) {}

  /** The order's conversation record for a party of the order, made on first use. */
  async open(actor: Actor, orderId: number): Promise<OrderChat> {
    const me = actor.merchantId;
    if (me === null) throw forbidden();
    const order = await ordersRepo.findOrder(this.deps.db, orderId);
    if (!order || (order.purchaser_merchant_id !== me && order.supplier_merchant_id !== me)) throw orderNotFound();
    const side = order.purchaser_merchant_id === me ? "purchaser" : "supplier";
    let record = await this.recordOf(orderId);
    if (!record) {
      // The purchaser's side of the conversation is the staff member who opens it, or else who ordered.
      const purchaserUser = side === "purchaser" ? actor.userId : order.created_by;
      if (purchaserUser === null) throw conflict("orderChat.noCounterpart");
      const now = this.deps.clock.now();
      record = await withTx(this.deps.db, async (tx) => {
        await chats.insertChat(tx, { order_id: orderId, purchaser_user_id: purchaserUser, started_at: now });
        return chats.chatOfOrThrow(tx, orderId);
      });
    }
    const counterpart = await getMerchant(
      this.deps.db,
      side === "purchaser" ? order.supplier_merchant_id : order.purchaser_merchant_id,
    );
    return {
      orderId: String(order.id),
      orderNo: order.order_no,
      goodsName: order.goods_name,
      side,
      self: side === "purchaser" ? userIm(actor.userId) : brandIm(me),
      targetId: side === "purchaser" ? brandIm(order.supplier_merchant_id) : userIm(record.purchaser_user_id),
      targetName: counterpart?.name ?? "",
      startTime: new Date(record.started_at).getTime(),
      endTime: order.finished_at ? new Date(order.finished_at).getTime() : null,
      messageId: record.message_id === null ? null : String(record.message_id),
    };
  }

  /** The purchaser records the message that opened the order's conversation (kept once). */
  async recordOpening(actor: Actor, orderId: number, messageId: number): Promise<OrderChat> {
    const chat = await this.open(actor, orderId);
    if (chat.side !== "purchaser") throw new AppError(CODE.FORBIDDEN, "orderChat.onlyPurchaser");
    const message = await this.deps.messageOf(messageId);
    if (
      !message ||
      message.recalled_at ||
      message.chat_type !== "chat" ||
      message.from_user !== chat.self ||
      message.to_target !== chat.targetId
    ) {
      throw messageNotFound();
    }
    await chats.setOpeningMessage(this.deps.db, orderId, messageId);
    return this.open(actor, orderId);
  }

  /** A one-to-one chat message the caller (as itself or as its brand) sent or received. */
  async message(actor: Actor, messageId: number): Promise<ChatMessageReply> {
    if (actor.merchantId === null) throw forbidden();
    const mine = [userIm(actor.userId), brandIm(actor.merchantId)];
    const m = await this.deps.messageOf(messageId);
    if (!m || m.chat_type !== "chat" || (!mine.includes(m.from_user) && !mine.includes(m.to_target))) {
      throw messageNotFound();
    }
    const recalled = m.recalled_at !== null;
    return {
      id: String(m.id),
      from: m.from_user,
      to: m.to_target,
      time: m.created_ms,
      recalled,
      body: recalled ? null : (m.payload.bodies[0] ?? null),
      ext: recalled ? {} : m.payload.ext,
    };
  }

  private recordOf(orderId: number) {
    return chats.chatOf(this.deps.db, orderId);
  }
}
