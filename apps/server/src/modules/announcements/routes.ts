import {
  announcementReq,
  envelope,
  opsAnnouncement,
  opsAnnouncementPage,
  pageQuery,
  serviceContact,
  serviceContactReply,
  serviceContactReq,
  textMessPage,
  textMessQuery,
} from "@tessera/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf, type Guard } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { idParam, routeDocs } from "../../platform/http/route";
import type { AnnouncementsService } from "./service";

const docs = routeDocs("announcements");
const nothing = envelope(z.null());

/** A merchant's account calls (spec 01 §7 Account): `GET getQwContact`, `GET textMess`, marking read. */
export function announcementUserRoutes({
  announcements,
  guard,
}: {
  announcements: AnnouncementsService;
  guard: Guard;
}): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const merchant = guard({ kinds: ["merchant"] });
    app.get(
      "/getQwContact",
      {
        schema: {
          ...docs,
          summary: "The platform's customer-service contact (null until set)",
          response: { 200: envelope(serviceContactReply) },
        },
        preHandler: merchant,
      },
      async () => ok(await announcements.contact()),
    );
    app.get(
      "/textMess",
      {
        schema: {
          ...docs,
          summary: "The platform's announcements to this merchant, with read state",
          querystring: textMessQuery,
          response: { 200: envelope(textMessPage) },
        },
        preHandler: merchant,
      },
      async (req) => ok(await announcements.textMess(actorOf(req), req.query)),
    );
    app.put(
      "/textMess/:id/read",
      {
        schema: { ...docs, summary: "Mark an announcement read", params: idParam, response: { 200: nothing } },
        preHandler: merchant,
      },
      async (req) => {
        await announcements.markRead(actorOf(req), req.params.id);
        return ok(null);
      },
    );
    app.put(
      "/textMess/read",
      {
        schema: {
          ...docs,
          summary: "Mark every announcement read",
          response: { 200: envelope(z.object({ marked: z.number().int() })) },
        },
        preHandler: merchant,
      },
      async (req) => ok(await announcements.markAllRead(actorOf(req))),
    );
  };
}

/** The operator's side: the contact and the announcements (`/api/ops`). */
export function announcementOpsRoutes({
  announcements,
  guard,
}: {
  announcements: AnnouncementsService;
  guard: Guard;
}): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = guard({ kinds: ["operator"] });
    app.get(
      "/serviceContact",
      {
        schema: {
          ...docs,
          summary: "The customer-service contact merchants see",
          response: { 200: envelope(serviceContactReply) },
        },
        preHandler: pre,
      },
      async () => ok(await announcements.contact()),
    );
    app.put(
      "/serviceContact",
      {
        schema: {
          ...docs,
          summary: "Set the customer-service contact",
          body: serviceContactReq,
          response: { 200: envelope(serviceContact) },
        },
        preHandler: pre,
      },
      async (req) => ok(await announcements.setContact(actorOf(req), req.body)),
    );
    app.get(
      "/announcements",
      {
        schema: {
          ...docs,
          summary: "Published announcements",
          querystring: pageQuery,
          response: { 200: envelope(opsAnnouncementPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await announcements.opsList(req.query)),
    );
    app.post(
      "/announcements",
      {
        schema: {
          ...docs,
          summary: "Publish an announcement to merchants",
          body: announcementReq,
          response: { 200: envelope(opsAnnouncement) },
        },
        preHandler: pre,
      },
      async (req) => ok(await announcements.publish(actorOf(req), req.body)),
    );
    app.delete(
      "/announcements/:id",
      {
        schema: { ...docs, summary: "Withdraw an announcement", params: idParam, response: { 200: nothing } },
        preHandler: pre,
      },
      async (req) => {
        await announcements.withdraw(actorOf(req), req.params.id);
        return ok(null);
      },
    );
  };
}
