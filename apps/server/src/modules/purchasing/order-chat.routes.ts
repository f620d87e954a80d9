import {
  chatMessageQuery,
  chatMessageReply,
  envelope,
  orderChat,
  orderChatOpenReq,
  orderChatQuery,
} from "@tessera/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { actorOf, type Guard } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { routeDocs } from "../../platform/http/route";
import type { OrderChatService } from "./order-chat.service";

const docs = routeDocs("brand chat");

/** `GET supplyOrder/im` (both parties of an order) and the opening message, under /api/card-brander. */
export function orderChatBranderRoutes({
  chat,
  guard,
}: {
  chat: OrderChatService;
  guard: Guard;
}): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = guard({ roles: ["sale", "business"], menu: ["sale/PurchaseOrder", "business/SalesOrder"] });
    app.get(
      "/supplyOrder/im",
      {
        schema: {
          ...docs,
          summary: "The order's conversation record (targetId, startTime, endTime, messageId), made on first use",
          querystring: orderChatQuery,
          response: { 200: envelope(orderChat) },
        },
        preHandler: pre,
      },
      async (req) => ok(await chat.open(actorOf(req), Number(req.query.orderId))),
    );
    app.post(
      "/supplyOrder/im",
      {
        schema: {
          ...docs,
          summary: "The purchaser records the message that opened the order's conversation",
          body: orderChatOpenReq,
          response: { 200: envelope(orderChat) },
        },
        preHandler: pre,
      },
      async (req) => ok(await chat.recordOpening(actorOf(req), Number(req.body.orderId), Number(req.body.messageId))),
    );
  };
}

/** A chat message by messageId, under /api/card-user. */
export function orderChatUserRoutes({ chat, guard }: { chat: OrderChatService; guard: Guard }): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = guard({ roles: ["sale", "business"], menu: ["sale/PurchaseOrder", "business/SalesOrder"] });
    app.get(
      "/im/message",
      {
        schema: {
          ...docs,
          summary: "A chat message the caller sent or received, by messageId",
          querystring: chatMessageQuery,
          response: { 200: envelope(chatMessageReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await chat.message(actorOf(req), Number(req.query.messageId))),
    );
  };
}
