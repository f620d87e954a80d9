import { IM_MUC_DOMAIN, IM_MUC_OPS, IM_ROSTER_OPS, IM_USER_DOMAIN } from "@tessera/contracts";
import type { ImNotice } from "../events";
import { Writer } from "../proto/wire";
import { metaOf, NS, writeJid } from "./frames";

/**
 * Sync-queue notices as protocol metas: group and room events (MUC namespace), contact events (ROSTER)
 * and the JSON notifications (NOTIFY), easemob-wire §3j. "raw" notices are metas the gateway already
 * built (receipts, recalls, edits) and stored so that offline devices get them in order.
 */
export interface RawNotice {
  ns: "raw";
  /** base64 of the Meta bytes */
  meta: string;
}

const THREAD_OPS = new Set<string>([
  "createThread",
  "destroyThread",
  "joinThread",
  "leaveThread",
  "kickThreadMember",
  "updateThreadName",
]);

function mucMeta(appKey: string, n: Extract<ImNotice, { ns: "muc" }>, id: number, nowMs: number): Uint8Array {
  const w = new Writer();
  writeJid(w, 1, { appKey, name: n.mucId, domain: IM_MUC_DOMAIN });
  w.varint(2, IM_MUC_OPS[n.op]);
  const from = {
    appKey,
    name: n.from,
    domain: IM_USER_DOMAIN,
    ...(n.fromResource && { clientResource: n.fromResource }),
  };
  writeJid(w, 3, from);
  for (const u of n.users ?? []) writeJid(w, 4, { appKey, name: u, domain: IM_USER_DOMAIN });
  if (n.reason !== undefined) w.string(6, n.reason);
  w.varint(7, n.kind === "room");
  const detail = n.detail ?? {};
  // A thread operation: the client reads the thread's group (mucParentId) unconditionally.
  if (THREAD_OPS.has(n.op)) {
    w.varint(9, true);
    writeJid(w, 10, {
      appKey,
      name: typeof detail.parentId === "string" ? detail.parentId : "",
      domain: IM_MUC_DOMAIN,
    });
  }
  if (typeof detail.name === "string") w.string(11, detail.name);
  if (Object.keys(detail).length > 0) w.message(12, (e) => e.varint(1, 0).string(2, JSON.stringify(detail)));
  const memberCount = n.memberCount ?? detail.memberCount;
  if (typeof memberCount === "number") w.varint(13, memberCount);
  if (Object.keys(detail).length > 0) w.string(14, JSON.stringify(detail));
  // Members who joined or left through someone else (added, invited, removed): the client reports each of
  // them (`members`) instead of the operator as the one who came or went. A member's own join or leave
  // names itself as `from`.
  const users = n.users ?? [];
  if ((n.op === "presence" || n.op === "absence") && users.some((u) => u !== n.from)) {
    for (const u of users) w.string(16, u);
  }
  return metaOf({
    id,
    from,
    to: { appKey, name: n.mucId, domain: IM_MUC_DOMAIN },
    nowMs,
    ns: NS.MUC,
    payload: w.finish(),
  });
}

function rosterMeta(appKey: string, n: Extract<ImNotice, { ns: "roster" }>, id: number, nowMs: number): Uint8Array {
  const w = new Writer();
  w.varint(1, IM_ROSTER_OPS[n.op]);
  writeJid(w, 3, { appKey, name: n.from, domain: IM_USER_DOMAIN });
  writeJid(w, 4, { appKey, name: n.to, domain: IM_USER_DOMAIN });
  if (n.reason !== undefined) w.string(5, n.reason);
  return metaOf({
    id,
    from: { appKey, name: n.from, domain: IM_USER_DOMAIN },
    to: { appKey, name: n.to, domain: IM_USER_DOMAIN },
    nowMs,
    ns: NS.ROSTER,
    payload: w.finish(),
  });
}

/** The JSON the client's parseNotify reads; compact (no control bytes, easemob-wire §6.6). */
function notifyJson(n: Extract<ImNotice, { ns: "notify" }>, nowMs: number): Record<string, unknown> {
  const d = n.detail;
  switch (n.type) {
    case "conv":
      return {
        type: "conv",
        data: {
          op: d.op === "untop" ? "not_top" : d.op === "unmark" ? "mark_delete" : d.op,
          id: d.to,
          type: d.type ?? "chat",
          ts: nowMs,
          ext: d.mark ?? "",
          from: n.from,
          res: d.resource ?? "",
        },
      };
    // A message pinned or unpinned: the client reads the op as pin / pin_delete and the message id from
    // `ext` (easemob-wire §3j, conv).
    case "pin":
      return {
        type: "conv",
        data: {
          op: d.op === "unpin" ? "pin_delete" : "pin",
          id: d.to,
          type: d.type ?? "chat",
          ts: typeof d.time === "number" ? d.time : nowMs,
          ext: d.messageId ?? "",
          from: n.from,
          res: "",
        },
      };
    case "presence":
      return {
        type: "presence",
        data: {
          values: [
            {
              uid: n.from,
              last_time: Math.floor(nowMs / 1000),
              expiry: 0,
              ext: d.ext ?? "",
              status: {
                [typeof d.resource === "string" ? d.resource : "web"]:
                  typeof d.status === "string" ? d.status : JSON.stringify(d.status ?? ""),
              },
            },
          ],
        },
      };
    case "roaming_delete":
      return { type: "roaming_delete", data: { resource: d.resource ?? "", to: d.to, chatType: d.type ?? "chat" } };
    // A list of changes, which the client walks (easemob-wire §3j): one change, the operator as `from`,
    // the conversation as `to` (for one-to-one, the operator's peer), the reaction's state after it.
    case "reaction": {
      const single = d.chatType === "chat";
      const peer = d.from === n.from ? d.to : d.from;
      const reactions = [{ reaction: d.reaction, count: d.count ?? 0, userList: d.userList ?? [], op: d.op ?? [] }];
      return {
        type: "reaction",
        data: [
          {
            from: n.from,
            to: single ? peer : d.to,
            channel_type: single ? "chat" : "groupchat",
            messageId: d.msgId,
            reactions,
            ts: nowMs,
          },
        ],
      };
    }
    case "thread":
      return { type: n.type, data: d };
    // Silent mode changed by one of the user's devices: the entry list sits beside the type.
    case "user_notification_mute":
      return { type: n.type, values: [d] };
  }
}

export function encodeNotice(
  appKey: string,
  raw: ImNotice | Record<string, unknown>,
  id: number,
  nowMs = Date.now(),
): Uint8Array | null {
  // Stored notices are the JSON of an ImNotice or a RawNotice (both written by this service).
  const n = raw as ImNotice | RawNotice;
  switch (n.ns) {
    case "raw":
      return Buffer.from(n.meta, "base64");
    case "muc":
      return mucMeta(appKey, n, id, nowMs);
    case "roster":
      return rosterMeta(appKey, n, id, nowMs);
    case "notify":
      return metaOf({
        id,
        from: { appKey, name: n.from, domain: IM_USER_DOMAIN },
        nowMs,
        ns: NS.NOTIFY,
        payload: Buffer.from(JSON.stringify(notifyJson(n, nowMs)), "utf8"),
      });
    // Session notices end sessions (the gateway kicks); message wake-ups only wake. Neither is a meta.
    case "session":
    case "message":
    default:
      return null;
  }
}
