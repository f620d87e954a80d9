import { z } from "zod";
import { OUTBOX_CHANNELS } from "./enums";
import { pageQuery } from "./paging";

/** The local mail/SMS adapter's outbox (`GET /api/dev/outbox`), shown on the dev mailbox page. */
export const outboxQuery = pageQuery.extend({
  to: z.string().trim().max(254).optional(),
  channel: z.enum(OUTBOX_CHANNELS).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  until: z.iso.datetime({ offset: true }).optional(),
});
export type OutboxQuery = z.infer<typeof outboxQuery>;

export const outboxItem = z.object({
  id: z.string(),
  channel: z.enum(OUTBOX_CHANNELS),
  to: z.string(),
  subject: z.string(),
  body: z.string(),
  createdAt: z.string(),
});
export type OutboxItem = z.infer<typeof outboxItem>;
