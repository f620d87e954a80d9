import type { ChatMessageReply, OrderChat, UserInfo } from "@tessera/contracts";
import { http } from "../api/http";

/** The back-office calls of the brand chat (spec 01 §7): the order's conversation and a chat message. */

/** `GET supplyOrder/im`: the order's conversation record (made on first use). */
export const fetchOrderChat = (orderId: string) =>
  http.get<OrderChat>("/api/card-brander/supplyOrder/im", { query: { orderId } });

/** The purchaser records the message that opened the order's conversation. */
export const recordOpening = (orderId: string, messageId: string) =>
  http.post<OrderChat>("/api/card-brander/supplyOrder/im", { orderId, messageId }, { toast: false, overlay: false });

/** A chat message by messageId. */
export const fetchChatMessage = (messageId: string) =>
  http.get<ChatMessageReply>("/api/card-user/im/message", { query: { messageId }, toast: false, overlay: false });

/** The user info afresh (its chat tokens are new on every call). */
export const fetchUserInfo = () => http.get<UserInfo>("/api/card-user/userInfo", { overlay: false });
