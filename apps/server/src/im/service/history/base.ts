import { IM_MUC_DOMAIN, IM_USER_DOMAIN } from "@tessera/contracts";
import type { Executor } from "../../../db/tx";
import { asGroupRefusal, invalidParam } from "../../errors";
import { encodeMessageBody, encodeMeta } from "../../proto/message";
import * as messages from "../../store/messages";
import * as mucStore from "../../store/mucs";
import { findThread } from "../../store/threads";
import type { ImDeps } from "../core";
import type { ImMucs, MucAccess } from "../mucs";

/** What a conversation id names, as the client addresses it. */
export type Target =
  | { kind: "chat"; peer: string; key: string }
  | { kind: "group" | "room"; mucId: number; key: string }
  | { kind: "thread"; threadId: number; mucId: number; key: string };
/**
 * What every part of ImHistory (service/history.ts) stands on: the message forms of replies and resolving
 * the conversation a client names. ImHistory is one class cut into files along this chain: HistoryBase,
 * HistoryAppend (storing and fanning out sends), ImHistory (roaming, conversations, recall).
 */
export class HistoryBase {
  constructor(
    protected readonly deps: ImDeps,
    protected readonly groups: ImMucs,
    protected readonly rooms: ImMucs,
  ) {}

  protected get minMs(): number {
    const days = this.deps.config.historyRetentionDays;
    return days > 0 ? this.deps.clock.now().getTime() - days * 86_400_000 : 0;
  }

  /** The REST form of a message (conversation lastMessage, thread last_message). */
  restMessage(row: messages.MessageRow): { id: string; timestamp: number; to: string; from: string; payload: string } {
    const domain = row.chat_type === "chat" ? IM_USER_DOMAIN : IM_MUC_DOMAIN;
    return {
      id: String(row.id),
      timestamp: row.created_ms,
      to: `${row.to_target}@${domain}`,
      from: row.from_user,
      payload: JSON.stringify(row.payload),
    };
  }

  /** A stored message as the protocol's Meta, base64 (history replies). */
  encodedMeta(row: messages.MessageRow): string {
    const body = row.body_pb ? new Uint8Array(row.body_pb) : encodeMessageBody(this.deps.appKey, row.payload);
    return Buffer.from(
      encodeMeta(this.deps.appKey, {
        id: row.id,
        from: row.from_user,
        fromResource: row.from_resource,
        to: row.to_target,
        chatType: row.chat_type,
        timestamp: row.created_ms,
        body,
      }),
    ).toString("base64");
  }

  /* ---------- targets ---------- */

  /** Resolves `<id>@easemob.com` (a user) or `<id>@conference.easemob.com` (group, room or thread) for `me`. */
  async resolveQueue(db: Executor, me: string, queue: string): Promise<Target> {
    const at = queue.lastIndexOf("@");
    const name = (at < 0 ? queue : queue.slice(0, at)).toLowerCase();
    const domain = at < 0 ? IM_USER_DOMAIN : queue.slice(at + 1);
    if (domain === IM_USER_DOMAIN) {
      if (!/^[a-z0-9_.-]{1,64}$/.test(name)) throw invalidParam("queue");
      return { kind: "chat", peer: name, key: messages.convKey("chat", me, name) };
    }
    if (domain !== IM_MUC_DOMAIN || !/^\d{1,18}$/.test(name)) throw invalidParam("queue");
    return this.resolveMuc(db, me, name);
  }

  /** A group, room or thread id the user may read: members only ("not members" otherwise). */
  async resolveMuc(db: Executor, me: string, id: string): Promise<Target> {
    const n = Number(id);
    const muc = await mucStore.mucKind(db, n);
    if (muc) {
      const mucs = muc.kind === "group" ? this.groups : this.rooms;
      const a = await mucs.access(db, { kind: "user", username: me }, id);
      if (muc.kind === "group") requireGroupMember(mucs, a);
      else mucs.require(a, "member");
      return {
        kind: muc.kind,
        mucId: n,
        key: messages.convKey(muc.kind === "group" ? "groupchat" : "chatroom", me, id),
      };
    }
    const thread = await findThread(db, id);
    if (!thread) throw this.groups.notFound(id);
    const a = await this.groups.access(db, { kind: "user", username: me }, String(thread.muc_id));
    requireGroupMember(this.groups, a);
    return {
      kind: "thread",
      threadId: thread.id,
      mucId: thread.muc_id,
      key: messages.convKey("groupchat", me, id, thread.id),
    };
  }
}

/** Group membership for calls under users/{me}/... (see asGroupRefusal). */
export function requireGroupMember(groups: ImMucs, a: MucAccess): void {
  try {
    groups.require(a, "member");
  } catch (err) {
    throw asGroupRefusal(err);
  }
}
