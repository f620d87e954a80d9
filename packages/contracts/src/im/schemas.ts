import { z } from "zod";
import { IM_LIMITS, IM_REMIND_TYPES, IM_REMOVE_HISTORY_MAX_IDS, IM_USERNAME_RE } from "./constants";

/**
 * Request bodies of the IM REST API as the published client sends them (easemob-wire §4.3). The server
 * validates with these; our SDK (issue 10) validates its arguments with the same rules before sending.
 * An issue's path names the field in the "Invalid parameter" error.
 */

export const imUsername = z.string().regex(IM_USERNAME_RE);
const usernameList = z.array(imUsername).min(1).max(1000);
const flag = z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")]);
const count = z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]).pipe(z.number().int());

export const imUserInfoGetReq = z.object({
  targets: z.array(imUsername).min(1).max(100),
  properties: z.array(z.string()).max(20).default([]),
});

/* ---------- groups and chat rooms ---------- */

export const imCreateGroupReq = z.object({
  owner: imUsername.optional(),
  groupname: z.string().max(IM_LIMITS.groupNameLength).default(""),
  desc: z.string().max(IM_LIMITS.descriptionLength).nullish(),
  description: z.string().max(IM_LIMITS.descriptionLength).nullish(),
  members: z.array(imUsername).max(IM_LIMITS.groupMaxUsers).nullish(),
  public: flag.default(false),
  approval: flag.default(false),
  allowinvites: flag.default(false),
  invite_need_confirm: flag.default(false),
  maxusers: count.pipe(z.number().min(1)).nullish(),
  custom: z.string().max(IM_LIMITS.customLength).nullish(),
  avatar: z.string().max(1024).nullish(),
});
export type ImCreateGroupReq = z.infer<typeof imCreateGroupReq>;

/** PUT chatgroups/{id}: either a new owner, or the fields to change. */
export const imModifyGroupReq = z.object({
  newowner: imUsername.optional(),
  groupname: z.string().max(IM_LIMITS.groupNameLength).nullish(),
  description: z.string().max(IM_LIMITS.descriptionLength).nullish(),
  custom: z.string().max(IM_LIMITS.customLength).nullish(),
  avatar: z.string().max(1024).nullish(),
  maxusers: count.pipe(z.number().min(1)).nullish(),
  membersonly: flag.nullish(),
  allowinvites: flag.nullish(),
  invite_need_confirm: flag.nullish(),
  public: flag.nullish(),
});

export const imCreateRoomReq = z.object({
  name: z.string().min(1).max(IM_LIMITS.groupNameLength),
  description: z.string().max(IM_LIMITS.descriptionLength).nullish(),
  maxusers: count.pipe(z.number().min(1)).nullish(),
  owner: imUsername.optional(),
  members: z.array(imUsername).max(IM_LIMITS.roomMaxUsers).nullish(),
  custom: z.string().max(IM_LIMITS.customLength).nullish(),
});

export const imModifyRoomReq = z.object({
  groupname: z.string().min(1).max(IM_LIMITS.groupNameLength).nullish(),
  description: z.string().max(IM_LIMITS.descriptionLength).nullish(),
  maxusers: count.pipe(z.number().min(1)).nullish(),
  custom: z.string().max(IM_LIMITS.customLength).nullish(),
});

export const imUsernamesReq = z.object({ usernames: usernameList });
export const imNewAdminReq = z.object({ newadmin: imUsername });
/** mute_duration in milliseconds; -1 mutes until unmuted. */
export const imMuteReq = z.object({
  usernames: usernameList,
  mute_duration: z.number().int().min(-1).max(Number.MAX_SAFE_INTEGER),
});
export const imAnnouncementReq = z.object({ announcement: z.string().max(IM_LIMITS.announcementLength) });
export const imApplyReq = z.object({ message: z.string().max(512).nullish() });
export const imApplyVerifyReq = z.object({
  applicant: imUsername,
  verifyResult: flag,
  reason: z.string().max(512).nullish(),
});
export const imInviteVerifyReq = z.object({ invitee: imUsername, verifyResult: flag });

export const imMemberAttributesReq = z.object({ metaData: z.record(z.string(), z.string()) });
export const imMemberAttributesGetReq = z.object({
  targets: z.array(imUsername).min(1).max(100),
  properties: z.array(z.string()).max(100).default([]),
});

export const imRoomAttributesGetReq = z.object({ keys: z.array(z.string()).max(IM_LIMITS.roomAttributes).nullish() });
export const imRoomAttributesSetReq = z.object({
  metaData: z.record(z.string(), z.string()),
  autoDelete: z.enum(["DELETE", "NO_DELETE"]).default("DELETE"),
});
export const imRoomAttributesDeleteReq = z.object({ keys: z.array(z.string()).min(1).max(IM_LIMITS.roomAttributes) });

/* ---------- contacts ---------- */

export const imContactApplyReq = z.object({
  usernames: z.array(imUsername).min(1).max(100),
  reason: z.string().max(512).nullish(),
});
export const imRemarkReq = z.object({ remark: z.string() });
export const imBlocklistReq = z.object({
  usernames: z.union([imUsername.transform((u) => [u]), z.array(imUsername).min(1).max(100)]),
});

/* ---------- conversations and history ---------- */

export const imDeleteConversationReq = z.object({
  channel: z.string().min(1),
  type: z.enum(["chat", "groupChat", "groupchat"]),
  delete_roam: flag.default(false),
});
export const imPinConversationReq = z.object({
  type: z.enum(["chat", "groupChat", "groupchat"]),
  to: z.string().min(1),
});
export const imPinMessageReq = z.object({
  to: z.string().min(1).max(64),
  type: z.enum(["chat", "groupChat", "groupchat"]),
  pin_msg_id: z.string().min(1).max(40),
});
/** Conversation marks: mark_0 .. mark_19 (IM_CONVERSATION_MARKS). */
export const imConversationMark = z.string().regex(/^mark_(1?\d)$/);
export const imConversationMarkReq = z.object({
  mark: imConversationMark,
  targets: z
    .array(z.object({ to: z.string().min(1).max(64), type: z.enum(["chat", "groupChat", "groupchat"]) }))
    .min(1)
    .max(20),
});

const nullableTime = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullish();
export const imRoamingReq = z.object({
  queue: z.string().min(1).max(200),
  start: z.union([z.number(), z.string()]).nullish(),
  end: z.union([z.number(), z.string()]).nullish(),
  pull_number: z.number().int().min(1).max(1000).nullish(),
  is_positive: flag.nullish(),
  msgType: z.string().max(200).nullish(),
  startTime: nullableTime,
  endTime: nullableTime,
  userId: z.string().max(64).nullish(),
});
export type ImRoamingReq = z.infer<typeof imRoamingReq>;

export const imRemoveHistoryIds = z
  .array(z.string().regex(/^\d{1,19}$/))
  .min(1)
  .max(IM_REMOVE_HISTORY_MAX_IDS);

/* ---------- reactions, reports ---------- */

export const imReactionReq = z.object({
  msgId: z.string().regex(/^\d{1,19}$/),
  message: z.string().min(1).max(IM_LIMITS.reactionLength),
});
export const imReportReq = z.object({
  username: z.string().nullish(),
  reportType: z.string().min(1).max(64),
  reportReason: z.string().min(1).max(IM_LIMITS.reportReasonLength),
});

/* ---------- presence ---------- */

export const imPresencePublishReq = z.object({ ext: z.string().default("") });
export const imPresenceUsersReq = z.object({ usernames: z.array(imUsername).min(1).max(100) });

/* ---------- silent mode ---------- */

const hm = /^(\d{1,2}):(\d{1,2})-(\d{1,2}):(\d{1,2})$/;
export const imSilentReq = z.union([
  z.object({ type: z.enum([...IM_REMIND_TYPES, "DEFAULT"]) }).strict(),
  z
    .object({
      ignoreDuration: z
        .number()
        .int()
        .min(0)
        .max(7 * 24 * 3600 * 1000),
    })
    .strict(),
  z
    .object({ ignoreInterval: z.string().regex(hm) })
    .strict()
    .refine((v) => {
      const m = hm.exec(v.ignoreInterval);
      if (!m) return false;
      const [h1, m1, h2, m2] = m.slice(1).map(Number) as [number, number, number, number];
      return h1 < 24 && h2 < 24 && m1 < 60 && m2 < 60;
    }),
]);
export type ImSilentReq = z.infer<typeof imSilentReq>;
export const imLanguageReq = z.object({ translationLanguage: z.string().min(1).max(20) });

/* ---------- threads ---------- */

export const imCreateThreadReq = z.object({
  name: z.string().min(1).max(IM_LIMITS.threadNameLength),
  msg_id: z.string().regex(/^\d{1,19}$/),
  group_id: z.string().regex(/^\d{1,19}$/),
  owner: imUsername.nullish(),
});
export const imRenameThreadReq = z.object({ name: z.string().min(1).max(IM_LIMITS.threadNameLength) });
export const imThreadLastMessageReq = z.object({
  threadIds: z
    .array(z.string().regex(/^\d{1,19}$/))
    .min(1)
    .max(20),
});

/* ---------- translation ---------- */

export const imTranslateReq = z.object({
  text: z.string().min(1),
  to: z.array(z.string().min(1).max(20)).min(1).max(IM_LIMITS.translateTargets),
});
