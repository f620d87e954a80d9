import { IM_MUC_DOMAIN, imMessagePayload, type ImMessagePayload } from "@tessera/contracts";
import type { Executor } from "../../../db/tx";
import { denied, ImError, imError, invalidParam } from "../../errors";
import { mucQueue, sendersWithOtherDevices, userQueue } from "../../store/inbox";
import { readSendLookups } from "../../store/send-lookups";
import * as messages from "../../store/messages";
import * as memberStore from "../../store/members";
import { addThreadMember, addThreadMessages, findThread, threadMemberNames } from "../../store/threads";
import type { ChatType } from "../../tables";
import { inScope, Scope } from "../core";
import { HistoryBase } from "./base";

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
/** Sending: the checks of a send, who gets it (fan-out), and storing sends one by one or a batch at once (ImHistory). */
export class HistoryAppend extends HistoryBase {
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
      const members = await threadMemberNames(db, thread.id);
      const to = members.filter((u) => u !== input.from);
      fan = { unreadFor: [], inboxFor: to, senderCopy: true };
    } else if (input.chatType === "chatroom") {
      fan = { unreadFor: [], inboxFor: [], senderCopy: false };
    } else {
      let members = lookups.members.get(mucId);
      if (!members) {
        lookups.members.set(mucId, (members = await memberStore.memberShields(db, Number(mucId))));
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
    const thread = await addThreadMessages(s.tx, threadId, t.count, t.last.id, s.now);
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
}
