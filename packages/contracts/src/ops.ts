import { z } from "zod";
import { merchantInfo } from "./accounts";
import { API_PERMISSIONS, REAL_NAME_STATES } from "./enums";
import { calendarDate } from "./dates";
import { REVIEW_STATES } from "./onboarding";
import { pageQuery } from "./paging";

/**
 * The operator console (`/api/ops`, platform operators only): review queues, merchant search and the
 * append-only audit log of operator actions.
 */

/**
 * Review queues. Each is provided by the module that owns the thing reviewed; the ledger issue adds
 * "bankCard" the same way (a queue provider registered with the ops module).
 */
export const QUEUE_KIND_RE = /^[a-zA-Z]{2,30}$/;
export const KNOWN_QUEUES = ["realName", "apiPermission"] as const;

export const queueSummary = z.object({ kind: z.string(), pending: z.number().int() });
export const queuesReply = z.array(queueSummary);
export type QueueSummary = z.infer<typeof queueSummary>;

export const queueItemsQuery = pageQuery.extend({
  state: z.enum(REVIEW_STATES).optional(),
  merchantId: z
    .string()
    .regex(/^\d{1,18}$/)
    .optional(),
});
export type QueueItemsQuery = z.infer<typeof queueItemsQuery>;

/** One review item. `fields` carry what the operator checks; `documents` are image URLs for this operator. */
export const queueItem = z.object({
  id: z.string(),
  kind: z.string(),
  merchantId: z.string(),
  merchantName: z.string(),
  state: z.enum(REVIEW_STATES),
  submittedAt: z.string(),
  reviewedAt: z.string().nullable(),
  reviewedBy: z.string().nullable(),
  rejectReason: z.string().nullable(),
  fields: z.record(z.string(), z.string().nullable()),
  documents: z.array(z.object({ kind: z.string(), url: z.string() })),
});
export type QueueItem = z.infer<typeof queueItem>;

export const reviewRejectReq = z.strictObject({
  reason: z
    .string({ error: "review.reasonEmpty" })
    .trim()
    .min(1, { error: "review.reasonEmpty" })
    .max(500, { error: "review.reasonLength" }),
});
export type ReviewRejectReq = z.infer<typeof reviewRejectReq>;

export const merchantSearchQuery = pageQuery.extend({
  /** Merchant id, part of its name, or its owner's e-mail. */
  keyword: z.string().trim().max(100).optional(),
  realNameState: z.enum(REAL_NAME_STATES).optional(),
  apiPermission: z.enum(API_PERMISSIONS).optional(),
});
export type MerchantSearchQuery = z.infer<typeof merchantSearchQuery>;

export const opsMerchantRow = merchantInfo.extend({ ownerEmail: z.string().nullable(), createdAt: z.string() });
export type OpsMerchantRow = z.infer<typeof opsMerchantRow>;

export const auditQuery = pageQuery.extend({
  operatorId: z
    .string()
    .regex(/^\d{1,18}$/)
    .optional(),
  action: z.string().trim().max(60).optional(),
  subjectType: z.string().trim().max(40).optional(),
  subjectId: z.string().trim().max(40).optional(),
  /** Inclusive ISO dates or timestamps. */
  from: calendarDate().or(z.iso.datetime()).optional(),
  to: calendarDate().or(z.iso.datetime()).optional(),
});
export type AuditQuery = z.infer<typeof auditQuery>;

export const auditRow = z.object({
  id: z.string(),
  operatorId: z.string(),
  operatorEmail: z.string().nullable(),
  action: z.string(),
  subjectType: z.string(),
  subjectId: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  reason: z.string().nullable(),
  ip: z.string().nullable(),
  createdAt: z.string(),
});
export type AuditRow = z.infer<typeof auditRow>;
