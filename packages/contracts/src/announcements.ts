import { z } from "zod";
import { MERCHANT_ROLES } from "./enums";
import { pageOf, pageQuery } from "./paging";

/**
 * The platform's customer-service contact and its announcements to merchants (spec 01 §7 Account:
 * `GET getQwContact`, `GET textMess`; issue 29). The operator sets the contact and publishes the
 * announcements in the console; a merchant sees the contact and the announcements meant for its roles,
 * each with its read state.
 */
const noNul = (s: string) => !s.includes("\u0000");

export const serviceContact = z.object({
  name: z.string(),
  qrUrl: z.string(),
  phone: z.string(),
  updatedAt: z.string(),
});
export type ServiceContact = z.infer<typeof serviceContact>;
/** null until the operator has set it. */
export const serviceContactReply = serviceContact.nullable();

export const serviceContactReq = z.strictObject({
  name: z
    .string({ error: "contact.nameEmpty" })
    .trim()
    .min(1, { error: "contact.nameEmpty" })
    .max(50, { error: "contact.nameEmpty" })
    .refine(noNul, { error: "contact.nameEmpty" }),
  /** An http(s) URL of the QR image, or a path on this platform (an uploaded image). */
  qrUrl: z
    .string({ error: "contact.qrInvalid" })
    .trim()
    .max(500, { error: "contact.qrInvalid" })
    .regex(/^(https?:\/\/[^\s]+|\/[^\s]*)$/, { error: "contact.qrInvalid" }),
  /** A mobile or landline number: digits, spaces, +, - and parentheses, 5-20 characters. */
  phone: z
    .string({ error: "contact.phoneInvalid" })
    .trim()
    .regex(/^\+?[\d\s()-]{5,20}$/, { error: "contact.phoneInvalid" }),
});
export type ServiceContactReq = z.infer<typeof serviceContactReq>;

export const ANNOUNCEMENT_AUDIENCES = ["all", ...MERCHANT_ROLES] as const;
export type AnnouncementAudience = (typeof ANNOUNCEMENT_AUDIENCES)[number];

export const announcementReq = z.strictObject({
  title: z
    .string({ error: "announcement.titleEmpty" })
    .trim()
    .min(1, { error: "announcement.titleEmpty" })
    .max(100, { error: "announcement.titleTooLong" })
    .refine(noNul, { error: "announcement.titleEmpty" }),
  body: z
    .string({ error: "announcement.bodyEmpty" })
    .trim()
    .min(1, { error: "announcement.bodyEmpty" })
    .max(5000, { error: "announcement.bodyTooLong" })
    .refine(noNul, { error: "announcement.bodyEmpty" }),
  audience: z.enum(ANNOUNCEMENT_AUDIENCES).default("all"),
});
export type AnnouncementReq = z.infer<typeof announcementReq>;

/** An announcement as a merchant sees it. */
export const textMess = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string(),
  publishedAt: z.string(),
  read: z.boolean(),
});
export type TextMess = z.infer<typeof textMess>;
export const textMessQuery = pageQuery.extend({ unread: z.enum(["true", "false"]).optional() });
export const textMessPage = pageOf(textMess).extend({ unread: z.number().int() });
export type TextMessPage = z.infer<typeof textMessPage>;

/** An announcement as the operator sees it: audience, how many merchants read it, withdrawn or not. */
export const opsAnnouncement = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string(),
  audience: z.enum(ANNOUNCEMENT_AUDIENCES),
  publishedAt: z.string(),
  withdrawnAt: z.string().nullable(),
  reads: z.number().int(),
});
export type OpsAnnouncement = z.infer<typeof opsAnnouncement>;
export const opsAnnouncementPage = pageOf(opsAnnouncement);
