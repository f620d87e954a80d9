import { z } from "zod";
import { imMessageBody } from "./im/message";

/**
 * Brand chat about an order (spec 03 §3 brand chat data, spec 01 §7 `GET supplyOrder/im` and a chat
 * message by messageId). The purchaser's staff member chats as `u<userId>`, the supplier as the brand
 * `b<merchantId>`.
 */

const orderIdField = z
  .string({ error: "orderChat.orderEmpty" })
  .trim()
  .min(1, { error: "orderChat.orderEmpty" })
  .regex(/^\d{1,18}$/, { error: "order.notFound" });
const messageIdField = z
  .string({ error: "orderChat.messageEmpty" })
  .trim()
  .min(1, { error: "orderChat.messageEmpty" })
  .regex(/^\d{1,18}$/, { error: "orderChat.messageNotFound" });

export const orderChatQuery = z.object({ orderId: orderIdField });
/** The purchaser records the message that opened the order's conversation (the order card). */
export const orderChatOpenReq = z.strictObject({ orderId: orderIdField, messageId: messageIdField });
export const chatMessageQuery = z.object({ messageId: messageIdField });

/** The orderChat record (targetId, startTime, endTime, messageId) as the reader sees it. */
export const orderChat = z.object({
  orderId: z.string(),
  orderNo: z.string(),
  goodsName: z.string(),
  /** Which side the reader is on. */
  side: z.enum(["purchaser", "supplier"]),
  /** The reader's own chat identity. */
  self: z.string(),
  /** The chat identity to talk to. */
  targetId: z.string(),
  targetName: z.string(),
  /** When the order's conversation began (ms). */
  startTime: z.number(),
  /** When the order ended (ms); null while it is processing. */
  endTime: z.number().nullable(),
  /** The message that opened the conversation about this order; null until one is sent. */
  messageId: z.string().nullable(),
});
export type OrderChat = z.infer<typeof orderChat>;

export const chatMessageReply = z.object({
  id: z.string(),
  from: z.string(),
  to: z.string(),
  time: z.number(),
  recalled: z.boolean(),
  body: imMessageBody.nullable(),
  ext: z.record(z.string(), z.unknown()),
});
export type ChatMessageReply = z.infer<typeof chatMessageReply>;
