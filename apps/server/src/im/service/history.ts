import {
  IM_CONVERSATION_MARKS,
  IM_LIMITS,
  IM_MUC_DOMAIN,
  IM_PAGE,
  IM_USER_DOMAIN,
  imMessagePayload,
  type ImMessagePayload,
  type ImRoamingReq,
} from "@tessera/contracts";
import type { Executor } from "../../db/tx";
import { asGroupRefusal, denied, ImError, imError, invalidParam } from "../errors";
import { encodeMessageBody, encodeMeta } from "../proto/message";
import * as convs from "../store/conversations";
import { mucQueue, sendersWithOtherDevices, userQueue } from "../store/inbox";
import { readSendLookups } from "../store/send-lookups";
import * as messages from "../store/messages";
import * as mucStore from "../store/mucs";
import { addThreadMember, findThread, threadMemberNames } from "../store/threads";
import type { ChatType } from "../tables";
import { inScope, Scope, type ImActor, type ImDeps } from "./core";
import type { ImMucs, MucAccess } from "./mucs";

/**
 * Messages, conversations and history roaming. History is served from the whole store (retention is
 * configurable, unlimited by default) and can be searched on the server by sender, message type and time
 * range; what a user removed or cleared stays hidden from that user only.
 */

/** What a conversation id names, as the client addresses it. */
export type Target =
  | { kind: "chat"; peer: string; key: string }
  | { kind: "group" | "room"; mucId: number; key: string }
  | { kind: "thread"; threadId: number; mucId: number; key: string };

export interface SendInput {
  chatType: ChatType;
  from: string;
  fromResource?: string | null;
  to: string;
  body: Record<string, unknown>;
  ext?: Record<string, unknown>;
  clientId?: string | null;
  /** The MessageBody exactly as the client sent it (the gateway forwards these bytes). */
  bodyPb?: Uint8Array | null;
  /** Group messages for these members only (routing "directed users"); the others never get them. */
  directedUsers?: readonly string[] | null;
  /**
   * Routing "online only": stored in history, but queued for nobody and counted unread by nobody; the
   * gateway hands it to the recipients' devices connected now (`recipients`).
   */
  onlineOnly?: boolean;
}

/** One send of appendMany: stored (or a resend of a stored one), or refused with its error. */
export type AppendOutcome = { ok: true; v: SentMessage } | { ok: false; e: ImError };

interface SendPlan {
  fan: messages.Fanout;
  threadId: number | null;
  /** Who gets it (its queue entries, or its online push when online-only). */
  recipients: readonly string[];
}

/**
 * Where appendMany runs: a transaction (Scope), or for one-to-one sends only the pool itself: their
 * checks read and their write is one statement, which commits on its own.
 */
export interface AppendScope {
  tx: Executor;
  now: Date;
}

/** How many of the conversations deleted at once the user's other devices are told of, one notice each. */
const DELETE_ALL_NOTICES = 1000;

/** The messages of one batch stored in one thread: how many, who sent them, and the newest. */
interface ThreadSends {
  count: number;
  senders: Set<string>;
  last: { id: number; createdMs: number; from: string; payload: ImMessagePayload };
}

/** Read once per list of sends; group members are read once per group. */
interface SendLookups {
  users: Set<string>;
  blocked: Set<string>;
  members: Map<string, { username: string; shielded: boolean }[]>;
  /** Senders with another device than the sending one (they get a queue copy of their sends). */
  otherDevices: Set<string>;
  /** Messages stored before under the sends' client ids; undefined when not read here. */
  resends?: { id: number; seq: number; createdMs: number; from: string; clientId: string }[];
}

export interface SentMessage {
  id: string;
  seq: number;
  timestamp: number;
  duplicate: boolean;
  /** Users whose sync queue got it (the gateway wakes their devices), the sender not included. */
  recipients: readonly string[];
  /** The sync-queue entries written (none for a resend): the gateway pushes them to online devices. */
  inbox: readonly messages.QueuedEntry[];
}

export class ImHistory {
  constructor(
    private readonly deps: ImDeps,
    private readonly groups: ImMucs,
    private readonly rooms: ImMucs,
  ) {}

  private get minMs(): number {
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

  /* ---------- sending (server-side send API; the gateway appends through the same store) ---------- */

  /**
   * Stores a message and fans it out, after the same checks the gateway applies: the recipient exists and
   * has not blocked the sender; group and room senders are members, not muted, not silenced by a ban
   * unless allowlisted. Resending the same client id returns the first message.
   */
  async send(input: SendInput): Promise<SentMessage> {
    const payload = this.buildPayload(input);
    const sent = await inScope(this.deps, (s) => this.append(s, input, payload));
    // The recipients' online devices learn of it like of any queue entry (the gateway pushes its own sends).
    const theirs = [...new Set(sent.inbox.filter((e) => e.username !== input.from).map((e) => e.username))];
    const mine = sent.inbox.some((e) => e.username === input.from);
    const muc = input.chatType === "chat" ? null : mucQueue(input.to);
    this.deps.bus.publish([
      ...(theirs.length > 0
        ? [{ to: theirs, notice: { ns: "message" as const, from: input.from, queue: muc ?? userQueue(input.from) } }]
        : []),
      ...(mine
        ? [
            {
              to: [input.from],
              notice: { ns: "message" as const, from: input.from, queue: muc ?? userQueue(input.to) },
              skipResource: input.fromResource ?? undefined,
            },
          ]
        : []),
    ]);
    return sent;
  }

  buildPayload(input: SendInput): ImMessagePayload {
    const parsed = imMessagePayload.safeParse({
      type: input.chatType,
      from: input.from,
      to: input.to,
      bodies: [input.body],
      ext: input.ext ?? {},
    });
    if (!parsed.success) throw invalidParam(`body.${parsed.error.issues[0]?.path.slice(2).join(".") || "type"}`);
    return parsed.data;
  }

  async append(s: Scope, input: SendInput, payload: ImMessagePayload): Promise<SentMessage> {
    const [outcome] = await this.appendMany(s, [{ input, payload }]);
    if (!outcome) throw new Error("no outcome");
    if (!outcome.ok) throw outcome.e;
    return outcome.v;
  }

  /**
   * Stores several messages in the caller's transaction (the gateway's group commit): each is checked on
   * its own (a refused one gets its error and does not disturb the others), and the accepted ones are
   * written together. The lookups the checks need are made once for the whole list.
   *
   * Resends (a client id stored before) are found by looking the client ids up first, or with
   * `resends: "fail"` not looked for: the write then fails with a unique violation on the client-id
   * index and writes nothing, and the caller stores the list again looking them up (the gateway's
   * batches: a resend is rare, and the look-up was a tenth of PostgreSQL's work per message).
   */
  async appendMany(
    s: AppendScope,
    jobs: readonly { input: SendInput; payload: ImMessagePayload }[],
    resends: "find" | "fail" = "find",
  ): Promise<AppendOutcome[]> {
    const lookups = await this.lookupsFor(
      s,
      jobs.map((j) => j.input),
      resends === "find",
    );
    const outcomes: AppendOutcome[] = new Array<AppendOutcome>(jobs.length);
    const planned: { i: number; plan: SendPlan }[] = [];
    for (const [i, job] of jobs.entries()) {
      try {
        // One-to-one checks only read the lookups: no promise per message for them.
        planned.push({
          i,
          plan:
            job.input.chatType === "chat"
              ? this.planChat(job.input, lookups)
              : await this.planMuc(s, job.input, lookups),
        });
      } catch (e) {
        if (!(e instanceof ImError)) throw e;
        outcomes[i] = { ok: false, e };
      }
    }
    const stored = await messages.appendMessages(
      s.tx,
      planned.map(({ i, plan }) => {
        const { input, payload } = jobs[i] as { input: SendInput; payload: ImMessagePayload };
        const m = {
          chatType: input.chatType,
          from: input.from,
          fromResource: input.fromResource ?? null,
          to: input.to,
          threadId: plan.threadId,
          payload,
          clientId: input.clientId ?? null,
          bodyPb: input.bodyPb ?? null,
        };
        return { m, fan: plan.fan };
      }),
      s.now,
      lookups.resends,
    );
    const threads = new Map<number, ThreadSends>();
    for (const [k, { i, plan }] of planned.entries()) {
      const row = stored[k] as messages.Appended;
      if (plan.threadId !== null && !row.duplicate) {
        const { input, payload } = jobs[i] as { input: SendInput; payload: ImMessagePayload };
        const t = threads.get(plan.threadId) ?? {
          count: 0,
          senders: new Set<string>(),
          last: { id: row.id, createdMs: row.createdMs, from: input.from, payload },
        };
        t.count++;
        t.senders.add(input.from);
        t.last = { id: row.id, createdMs: row.createdMs, from: input.from, payload };
        threads.set(plan.threadId, t);
      }
      outcomes[i] = {
        ok: true,
        v: {
          id: String(row.id),
          seq: row.seq,
          timestamp: row.createdMs,
          duplicate: row.duplicate,
          recipients: plan.recipients,
          inbox: row.inbox,
        },
      };
    }
    // Only sends into threads get here: one-to-one and plain group sends pay nothing for it.
    for (const [threadId, t] of threads) await this.countThreadMessages(s, threadId, t);
    return outcomes;
  }

  /** What the checks of a list of sends read, read once: peers that exist, blocks between the parties. */
  private async lookupsFor(s: AppendScope, inputs: readonly SendInput[], findResends: boolean): Promise<SendLookups> {
    const chats = inputs.filter((i) => i.chatType === "chat");
    // Only queued copies depend on the sender's other devices: a one-to-one message has none (its
    // sender's devices read it from the conversation, migration 0089), so its sender's devices are not read.
    const fromDevices = inputs.flatMap((i) =>
      i.fromResource && i.chatType !== "chat" ? [{ username: i.from, resource: i.fromResource }] : [],
    );
    const clientIds = findResends
      ? inputs.flatMap((i) => (i.clientId ? [{ from: i.from, clientId: i.clientId }] : []))
      : [];
    if (fromDevices.length === 0 && chats.length === 0 && clientIds.length === 0) {
      return { users: new Set(), blocked: new Set(), members: new Map(), otherDevices: new Set(), resends: [] };
    }
    const rows = await readSendLookups(s.tx, {
      senders: [...new Set(fromDevices.map((d) => d.username))],
      peers: [...new Set(chats.map((c) => c.to))],
      chatSenders: [...new Set(chats.map((c) => c.from))],
      clientIds,
      now: s.now,
    });
    return {
      users: rows.users,
      blocked: rows.blocks,
      members: new Map(),
      otherDevices: sendersWithOtherDevices(fromDevices, rows.devices),
      resends: rows.resends,
    };
  }

  /** The checks of a one-to-one send (the recipient exists and has not blocked the sender) and who gets it. */
  private planChat(input: SendInput, lookups: SendLookups): SendPlan {
    if (!lookups.users.has(input.to)) throw imError("userNotFound", { username: input.to });
    if (lookups.blocked.has(`${input.to}\0${input.from}`)) throw denied(`${input.to} has blocked ${input.from}`);
    const to = input.to === input.from ? [] : [input.to];
    return this.finishPlan(input, { unreadFor: to, inboxFor: to, senderCopy: true }, null, lookups);
  }

  /**
   * The checks of a group or room send (the sender is a member, not muted, not silenced by a ban unless
   * allowlisted) and who gets it.
   */
  private async planMuc(s: AppendScope, input: SendInput, lookups: SendLookups): Promise<SendPlan> {
    const db = s.tx;
    let fan: messages.Fanout;
    let threadId: number | null = null;
    const thread = input.chatType === "groupchat" ? await findThread(db, input.to) : undefined;
    const mucs = input.chatType === "chatroom" ? this.rooms : this.groups;
    const mucId = thread ? String(thread.muc_id) : input.to;
    const verdict = await mucs.sendCheck(db, mucId, input.from);
    if (verdict === "not_found") throw mucs.notFound(input.to);
    if (verdict === "disabled") throw imError("groupDisabled");
    if (verdict === "not_member") throw imError("notMember", { username: input.from });
    if (verdict === "muted") throw denied(`${input.from} is muted in ${mucId}`);
    if (verdict === "banned") throw denied(`sending in ${mucId} is banned`);
    if (thread) {
      threadId = thread.id;
      const members = await db
        .selectFrom("im_thread_members")
        .select("username")
        .where("thread_id", "=", thread.id)
        .execute();
      const to = members.map((m) => m.username).filter((u) => u !== input.from);
      fan = { unreadFor: [], inboxFor: to, senderCopy: true };
    } else if (input.chatType === "chatroom") {
      fan = { unreadFor: [], inboxFor: [], senderCopy: false };
    } else {
      let members = lookups.members.get(mucId);
      if (!members) {
        lookups.members.set(
          mucId,
          (members = await db
            .selectFrom("im_muc_members")
            .select(["username", "shielded"])
            .where("muc_id", "=", Number(mucId))
            .execute()),
        );
      }
      const directed = input.directedUsers ? new Set(input.directedUsers) : null;
      const to = members
        .filter((m) => m.username !== input.from && !m.shielded && (!directed || directed.has(m.username)))
        .map((m) => m.username);
      fan = { unreadFor: to, inboxFor: to, senderCopy: true };
    }
    return this.finishPlan(input, fan, threadId, lookups);
  }

  /** Online-only sends queue nothing; a sender with no other device needs no queue copy of its own send. */
  private finishPlan(input: SendInput, fan: messages.Fanout, threadId: number | null, lookups: SendLookups): SendPlan {
    const recipients = fan.inboxFor;
    if (input.onlineOnly) {
      return { fan: { unreadFor: [], inboxFor: [], senderCopy: false, senderQueueCopy: false }, threadId, recipients };
    }
    // A device that sends needs no copy of its own message; the user's other devices do, if there are any.
    // (Set on the plan's own fan-out object: a copy per message was a measurable part of a batch's work.)
    fan.senderQueueCopy = !(fan.senderCopy && input.fromResource && !lookups.otherDevices.has(input.from));
    return { fan, threadId, recipients };
  }

  /**
   * A batch's messages in one thread: counted once, their senders made members, and the thread's members
   * told once per batch with the count and the newest message (notify thread `update_msg`, which the
   * client reports as onChatThreadChange "update", easemob-wire §3j). The notice is a live refresh only
   * (not queued): a device that was offline gets the messages themselves and reads the thread's state.
   */
  private async countThreadMessages(s: AppendScope, threadId: number, t: ThreadSends): Promise<void> {
    if (!(s instanceof Scope)) throw new Error("thread messages are stored in a transaction");
    const thread = await s.tx
      .updateTable("im_threads")
      .set((eb) => ({
        message_count: eb("message_count", "+", t.count),
        last_message_id: t.last.id,
        updated_at: s.now,
      }))
      .where("id", "=", threadId)
      .returning(["id", "name", "muc_id", "parent_msg_id", "message_count"])
      .executeTakeFirst();
    for (const username of t.senders) await addThreadMember(s.tx, threadId, username, s.now);
    if (!thread) return;
    const members = await threadMemberNames(s.tx, threadId);
    const lastMessage = {
      id: String(t.last.id),
      timestamp: t.last.createdMs,
      from: t.last.from,
      to: `${threadId}@${IM_MUC_DOMAIN}`,
      payload: t.last.payload,
    };
    await s.notify(
      members,
      {
        ns: "notify",
        type: "thread",
        from: t.last.from,
        detail: {
          operation: "update_msg",
          id: String(thread.id),
          name: thread.name,
          muc_parent_id: String(thread.muc_id),
          msg_parent_id: String(thread.parent_msg_id),
          timestamp: s.nowMs,
          from: t.last.from,
          message_count: thread.message_count,
          last_message: lastMessage,
        },
      },
      { durable: false },
    );
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
    const muc = await db.selectFrom("im_mucs").select(["id", "kind"]).where("id", "=", n).executeTakeFirst();
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

  /* ---------- history roaming ---------- */

  /**
   * POST users/{me}/messageroaming: a page of one conversation's history, newest first unless
   * is_positive, from the cursor (`start`, the previous `next_key`; -1 for the end), filtered by sender,
   * message types and time range.
   */
  async roaming(
    me: string,
    req: ImRoamingReq,
  ): Promise<{ msgs: { msg: string; msg_id: string; timestamp: number }[]; next_key: string; is_last: boolean }> {
    const db = this.deps.db;
    const target = await this.resolveQueue(db, me, req.queue);
    const limit = Math.min(req.pull_number ?? IM_PAGE.historyPageSize, IM_PAGE.historyMaxPageSize);
    const direction = req.is_positive ? "down" : "up";
    const start =
      req.start === null || req.start === undefined || String(req.start) === "-1" || String(req.start) === ""
        ? null
        : Number(req.start);
    if (start !== null && (!Number.isSafeInteger(start) || start < 0)) throw invalidParam("start");
    const conv =
      target.kind === "chat" || target.kind === "group" ? await convs.findConversation(db, me, target.key) : undefined;
    const types = req.msgType
      ? req.msgType
          .split(",")
          .map((t) => t.trim())
          .filter((t) => t !== "")
      : [];
    const from = target.kind === "chat" ? undefined : req.userId?.toLowerCase() || undefined;
    const rows = await messages.history(db, {
      convKey: target.key,
      username: me,
      direction,
      afterSeq: start,
      limit: limit + 1,
      clearedSeq: conv?.cleared_seq ?? 0,
      clearedMs: conv?.cleared_ms ?? 0,
      minMs: this.minMs,
      from,
      types,
      startMs: req.startTime ?? undefined,
      endMs: req.endTime ?? undefined,
    });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      msgs: page.map((r) => ({ msg: this.encodedMeta(r), msg_id: String(r.id), timestamp: r.created_ms })),
      next_key: last ? String(last.seq) : "",
      is_last: rows.length <= limit,
    };
  }

  /** Removes messages from the user's own history, by ids or everything before a time. */
  async removeHistory(
    me: string,
    kind: "chat" | "group",
    target: string,
    what: { ids: number[] } | { beforeMs: number },
    resource?: string,
  ): Promise<void> {
    await inScope(this.deps, async (s) => {
      const t =
        kind === "chat"
          ? { kind: "chat" as const, key: messages.convKey("chat", me, target.toLowerCase()) }
          : await this.resolveMuc(s.tx, me, target);
      if ("ids" in what) {
        const rows = await messages.findMessages(s.tx, what.ids);
        const mine = rows.filter((r) => r.conv_key === t.key).map((r) => r.id);
        await messages.hideMessages(s.tx, me, mine);
      } else {
        await convs.setClearedMs(s.tx, me, t.key, what.beforeMs);
      }
      await convs.refreshConversation(s.tx, me, t.key);
      // Every device hears of it; the client ignores the notice on the device that names itself as `resource`.
      const detail = {
        to: target,
        type: kind === "chat" ? "chat" : "groupchat",
        ...(resource && { resource }),
        ...what,
      };
      await s.notify(
        [me],
        { ns: "notify", type: "roaming_delete", from: me, detail },
        { durable: true, skipResource: undefined },
      );
    });
  }

  /** The message must be a group's (group read receipts). */
  async requireGroupMessage(groupId: string, messageId: number): Promise<void> {
    const row = await messages.findMessage(this.deps.db, messageId);
    if (!row || row.chat_type !== "groupchat" || row.to_target !== groupId || row.thread_id !== null) {
      throw imError("messageNotFound", { id: messageId });
    }
  }

  /* ---------- conversations ---------- */

  private async present(rows: convs.ConversationRow[]): Promise<Record<string, unknown>[]> {
    const last = await messages.findMessages(
      this.deps.db,
      rows.map((r) => r.last_message_id).filter((id): id is number => id !== null),
    );
    const byId = new Map(last.map((m) => [m.id, m]));
    return rows.map((c) => {
      const m = c.last_message_id !== null ? byId.get(c.last_message_id) : undefined;
      return {
        session_to: c.peer,
        session_type: c.chat_type === "chat" ? "chat" : "groupchat",
        channel_id: `${this.deps.appKey}_${c.peer}@${c.chat_type === "chat" ? IM_USER_DOMAIN : IM_MUC_DOMAIN}`,
        is_top: c.pinned_ms !== null,
        update_top_status_time: c.pinned_ms ?? 0,
        unread_num: c.unread,
        marks: markNames(c.marks),
        meta: m && !m.recalled_at ? this.restMessage(m) : {},
      };
    });
  }

  /** GET sdk/user/{me}/user_channels/list (or /mark/search with a mark): newest first (or the pinned ones), with a keyset cursor. */
  async conversations(
    me: string,
    options: { pinnedOnly: boolean; cursor: string | undefined; limit: number; mark?: string },
  ): Promise<{ items: Record<string, unknown>[]; cursor: string }> {
    let after: { ms: number; key: string } | null = null;
    if (options.cursor) {
      try {
        const [ms, key] = JSON.parse(Buffer.from(options.cursor, "base64url").toString("utf8")) as [unknown, unknown];
        if (typeof ms !== "number" || typeof key !== "string") throw new Error("bad cursor");
        after = { ms, key };
      } catch {
        throw invalidParam("cursor");
      }
    }
    const rows = await convs.conversationPage(this.deps.db, me, {
      pinnedOnly: options.pinnedOnly,
      after,
      limit: options.limit + 1,
      ...(options.mark !== undefined && { markBit: markBit(options.mark) }),
    });
    const page = rows.slice(0, options.limit);
    const last = page.at(-1);
    const cursor =
      rows.length > options.limit && last
        ? Buffer.from(JSON.stringify([options.pinnedOnly ? last.pinned_ms : last.last_ms, last.conv_key])).toString(
            "base64url",
          )
        : "";
    return { items: await this.present(page), cursor };
  }

  /** GET users/{me}/user_channels[/page]: the older conversation list, by page number. */
  async conversationPage(me: string, pageNum: number, pageSize: number): Promise<Record<string, unknown>[]> {
    const rows = await convs.conversationOffsetPage(this.deps.db, me, (pageNum - 1) * pageSize, pageSize);
    return this.present(rows);
  }

  private convKeyOf(me: string, type: "chat" | "groupchat", to: string): string {
    return type === "chat" ? messages.convKey("chat", me, to.toLowerCase()) : messages.convKey("groupchat", me, to);
  }

  /** Deletes a conversation from the list; with deleteRoam, the user's history of it too. */
  async deleteConversation(
    me: string,
    type: "chat" | "groupchat",
    channel: string,
    deleteRoam: boolean,
    resource: string | undefined,
  ): Promise<void> {
    await inScope(this.deps, async (s) => {
      const key = this.convKeyOf(me, type, channel);
      const clear = deleteRoam ? await convs.headSeq(s.tx, key) : null;
      const found = await convs.hideConversation(s.tx, me, key, clear);
      if (!found) throw imError("conversationNotFound");
      await s.notify(
        [me],
        { ns: "notify", type: "conv", from: me, detail: { op: "del", to: channel, type, delete_roam: deleteRoam } },
        { durable: true, skipResource: resource },
      );
    });
  }

  /**
   * Adds or removes a mark on conversations. Targets the user has no visible conversation with are
   * returned as ignored (the client only logs them).
   */
  async mark(
    me: string,
    mark: string,
    targets: { to: string; type: "chat" | "groupchat" }[],
    on: boolean,
    resource: string | undefined,
  ): Promise<{ ignore: string[] }> {
    return inScope(this.deps, async (s) => {
      const keyed = targets.map((t) => ({ ...t, key: this.convKeyOf(me, t.type, t.to) }));
      const changed = new Set(
        await convs.setMark(
          s.tx,
          me,
          keyed.map((t) => t.key),
          markBit(mark),
          on,
        ),
      );
      const done = keyed.filter((t) => changed.has(t.key));
      // One notice per conversation: the client reads one conversation (`id`, `type`) from each.
      for (const t of done) {
        await s.notify(
          [me],
          {
            ns: "notify",
            type: "conv",
            from: me,
            detail: { op: on ? "mark" : "unmark", mark, to: t.to, type: t.type },
          },
          { durable: true, skipResource: resource },
        );
      }
      return { ignore: keyed.filter((t) => !changed.has(t.key)).map((t) => t.to) };
    });
  }

  /**
   * Clears all of the user's conversations and their history for the user (others keep theirs). The
   * client knows no "all deleted" notice: the user's other devices hear of each conversation deleted
   * (conv `del`, as for one), the newest DELETE_ALL_NOTICES of them; any older ones are gone from the
   * server's list, which a device reads when it next loads its conversations.
   */
  async deleteAll(me: string, resource: string | undefined): Promise<void> {
    await inScope(this.deps, async (s) => {
      const visible = await convs.visibleConversations(s.tx, me, DELETE_ALL_NOTICES);
      await convs.hideAllConversations(s.tx, me, s.nowMs);
      const notices = visible.map((c) => ({
        ns: "notify" as const,
        type: "conv" as const,
        from: me,
        detail: { op: "del", to: c.peer, type: c.chat_type, delete_roam: true },
      }));
      await s.notifyUser(me, notices, { skipResource: resource });
    });
  }

  /** Pins or unpins a conversation (at most IM_LIMITS.pinnedConversations pinned). */
  async pin(
    me: string,
    type: "chat" | "groupchat",
    to: string,
    on: boolean,
    resource: string | undefined,
  ): Promise<{ isTop: boolean; time: number }> {
    return inScope(this.deps, async (s) => {
      const key = this.convKeyOf(me, type, to);
      const conv = await convs.findConversation(s.tx, me, key);
      if (!conv || !conv.visible) throw imError("conversationNotFound");
      if (on && conv.pinned_ms === null && (await convs.pinnedCount(s.tx, me)) >= IM_LIMITS.pinnedConversations) {
        throw imError("maxLimit", { what: "pinned conversations", max: IM_LIMITS.pinnedConversations });
      }
      const time = s.nowMs;
      await convs.setPinned(s.tx, me, key, on ? (conv.pinned_ms ?? time) : null);
      await s.notify(
        [me],
        { ns: "notify", type: "conv", from: me, detail: { op: on ? "top" : "untop", to, type } },
        { durable: true, skipResource: resource },
      );
      return { isTop: on, time: on ? (conv.pinned_ms ?? time) : time };
    });
  }

  /** The user read a conversation up to a message (gateway: read acknowledgements). */
  async markRead(me: string, type: "chat" | "groupchat", to: string, messageId: number | null): Promise<void> {
    await inScope(this.deps, async (s) => {
      const key = this.convKeyOf(me, type, to);
      const seq =
        messageId === null ? await convs.headSeq(s.tx, key) : ((await messages.findMessage(s.tx, messageId))?.seq ?? 0);
      await convs.markRead(s.tx, me, key, seq);
    });
  }

  /** Recalls a message (gateway). Everyone's conversation row showing it, and unread counts, follow. */
  async recall(actor: ImActor, messageId: number): Promise<messages.MessageRow> {
    return inScope(this.deps, async (s) => {
      const row = await messages.findMessage(s.tx, messageId);
      if (!row || row.recalled_at) throw imError("messageNotFound", { id: messageId });
      if (actor.kind === "user" && actor.username !== row.from_user) {
        if (row.chat_type === "chat") throw denied("only the sender may recall a message");
        const mucs = row.chat_type === "chatroom" ? this.rooms : this.groups;
        const a = await mucs.access(s.tx, actor, row.to_target);
        mucs.require(a, "admin");
      }
      await messages.markRecalled(s.tx, row.id, s.now);
      const affected = await s.tx
        .selectFrom("im_conversations")
        .select("username")
        .where("conv_key", "=", row.conv_key)
        .execute();
      for (const { username } of affected) await convs.refreshConversation(s.tx, username, row.conv_key);
      return row;
    });
  }
}

/** Group messages the caller may see, for reactions and reports on group messages. */
export async function canSeeMessage(db: Executor, username: string, row: messages.MessageRow): Promise<boolean> {
  if (row.recalled_at) return false;
  if (row.chat_type === "chat") return row.from_user === username || row.to_target === username;
  const mucId =
    row.thread_id !== null ? ((await findThread(db, String(row.thread_id)))?.muc_id ?? 0) : Number(row.to_target);
  return (await mucStore.findMember(db, mucId, username)) !== undefined;
}

/** Group membership for calls under users/{me}/... (see asGroupRefusal). */
function requireGroupMember(groups: ImMucs, a: MucAccess): void {
  try {
    groups.require(a, "member");
  } catch (err) {
    throw asGroupRefusal(err);
  }
}

/** mark_N is bit N of the conversation's marks (N from 0 to IM_CONVERSATION_MARKS - 1). */
function markBit(mark: string): number {
  const n = Number(/^mark_(\d{1,2})$/.exec(mark)?.[1] ?? NaN);
  if (!Number.isInteger(n) || n < 0 || n >= IM_CONVERSATION_MARKS) throw invalidParam("mark");
  return 1 << n;
}

function markNames(bits: number): string[] {
  const out: string[] = [];
  for (let n = 0; n < IM_CONVERSATION_MARKS; n++) if (bits & (1 << n)) out.push(`mark_${n}`);
  return out;
}
