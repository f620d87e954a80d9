import { IM_MUC_DOMAIN } from "@tessera/contracts";
import { denied, imError } from "../errors";
import * as messages from "../store/messages";
import { nextId } from "../store/mucs";
import * as store from "../store/threads";
import { inScope, type ImActor, type ImDeps, type Scope } from "./core";
import type { ImMucs } from "./mucs";

/**
 * Threads (spec 03 §7): a sub-conversation under one message of a group, at most one per message. Group
 * members create, join and read them; the thread's owner or the group's owner and admins rename,
 * destroy and remove members; thread membership is capped by configuration.
 */
export class ImThreads {
  constructor(
    private readonly deps: ImDeps,
    private readonly groups: ImMucs,
  ) {}

  /** The thread, and the caller's access to its group. */
  private async load(db: Parameters<ImMucs["access"]>[0], actor: ImActor, rawId: string) {
    const thread = await store.findThread(db, rawId);
    if (!thread) throw imError("threadNotFound", { id: rawId });
    const a = await this.groups.access(db, actor, String(thread.muc_id));
    this.groups.require(a, "member");
    return { thread, a };
  }

  presentDetail(t: store.ThreadRow): Record<string, unknown> {
    return {
      id: String(t.id),
      name: t.name,
      owner: t.owner,
      created: t.created_at.getTime(),
      affiliations_count: t.member_count,
      msgId: String(t.parent_msg_id),
      groupId: String(t.muc_id),
    };
  }

  private async notifyGroup(s: Scope, t: store.ThreadRow, operation: "create" | "update" | "delete", from: string) {
    const members = await this.groups.memberNames(s.tx, t.muc_id);
    await s.notify(
      members,
      {
        ns: "notify",
        type: "thread",
        from,
        detail: {
          operation,
          id: String(t.id),
          muc_parent_id: String(t.muc_id),
          msg_parent_id: String(t.parent_msg_id),
          name: t.name,
          timestamp: s.nowMs,
          from,
        },
      },
      { durable: true },
    );
  }

  /**
   * The acting user's other devices hear of a thread it created, joined, left, destroyed or renamed: a
   * thread operation the client turns into a multi-device event (easemob-wire §3j, ops 33 to 38). The
   * device that acted (`resource`) is skipped; with an app token no user acted.
   */
  private async tellOwnDevices(
    s: Scope,
    me: string | null,
    op: "createThread" | "destroyThread" | "joinThread" | "leaveThread" | "updateThreadName",
    t: store.ThreadRow,
    resource: string | undefined,
  ) {
    if (!me) return;
    const detail = { name: t.name, parentId: String(t.muc_id) };
    await s.notify(
      [me],
      { ns: "muc", op, kind: "group", mucId: String(t.id), from: me, detail },
      { durable: true, skipResource: resource },
    );
  }

  async create(
    actor: ImActor,
    f: { name: string; messageId: string; groupId: string; owner?: string | null },
    resource?: string,
  ): Promise<string> {
    return inScope(this.deps, async (s) => {
      const a = await this.groups.access(s.tx, actor, f.groupId, { lock: s });
      this.groups.require(a, "member");
      const owner = a.username ?? f.owner?.toLowerCase();
      if (!owner) throw denied("a thread needs an owner");
      const parent = await messages.findMessage(s.tx, Number(f.messageId));
      if (
        !parent ||
        parent.chat_type !== "groupchat" ||
        parent.to_target !== String(a.muc.id) ||
        parent.thread_id !== null ||
        parent.recalled_at
      ) {
        throw imError("messageNotFound", { id: f.messageId });
      }
      if (await store.threadOfMessage(s.tx, parent.id)) throw imError("threadExists", { id: f.messageId });
      const id = await nextId(s.tx);
      await store.insertThread(s.tx, { id, mucId: a.muc.id, parentMsgId: parent.id, name: f.name, owner, now: s.now });
      await store.addThreadMember(s.tx, id, owner, s.now);
      const row = await store.findThread(s.tx, String(id));
      if (row) {
        await this.notifyGroup(s, row, "create", owner);
        await this.tellOwnDevices(s, a.username, "createThread", row, resource);
      }
      return String(id);
    });
  }

  async join(actor: ImActor, rawId: string, resource?: string): Promise<store.ThreadRow> {
    return inScope(this.deps, async (s) => {
      const { thread, a } = await this.load(s.tx, actor, rawId);
      const me = a.username;
      if (!me) throw denied("joining needs a user's token");
      if (!(await store.isThreadMember(s.tx, thread.id, me))) {
        if (thread.member_count >= this.deps.config.maxThreadMembers) {
          throw imError("threadFull", { max: this.deps.config.maxThreadMembers });
        }
        await store.addThreadMember(s.tx, thread.id, me, s.now);
        await this.tellOwnDevices(s, me, "joinThread", thread, resource);
      }
      return (await store.findThread(s.tx, rawId)) ?? thread;
    });
  }

  async leave(actor: ImActor, rawId: string, resource?: string): Promise<void> {
    await inScope(this.deps, async (s) => {
      const { thread, a } = await this.load(s.tx, actor, rawId);
      const me = a.username;
      if (!me) throw denied("leaving needs a user's token");
      if (!(await store.removeThreadMember(s.tx, thread.id, me))) throw denied(`${me} is not in thread ${rawId}`);
      await this.tellOwnDevices(s, me, "leaveThread", thread, resource);
    });
  }

  private requireModerator(thread: store.ThreadRow, a: Awaited<ReturnType<ImMucs["access"]>>): void {
    if (a.role === "app" || a.role === "owner" || a.role === "admin" || a.username === thread.owner) return;
    throw denied(`only the creator of thread ${thread.id} or an admin of the group may do this`);
  }

  async destroy(actor: ImActor, rawId: string, resource?: string): Promise<void> {
    await inScope(this.deps, async (s) => {
      const { thread, a } = await this.load(s.tx, actor, rawId);
      this.requireModerator(thread, a);
      await this.notifyGroup(s, thread, "delete", a.username ?? "admin");
      await this.tellOwnDevices(s, a.username, "destroyThread", thread, resource);
      await store.deleteThread(s.tx, thread.id);
    });
  }

  async rename(actor: ImActor, rawId: string, name: string, resource?: string): Promise<void> {
    await inScope(this.deps, async (s) => {
      const { thread, a } = await this.load(s.tx, actor, rawId);
      this.requireModerator(thread, a);
      await store.renameThread(s.tx, thread.id, name, s.now);
      await this.notifyGroup(s, { ...thread, name }, "update", a.username ?? "admin");
      await this.tellOwnDevices(s, a.username, "updateThreadName", { ...thread, name }, resource);
    });
  }

  async members(
    actor: ImActor,
    rawId: string,
    cursor: string | undefined,
    limit: number,
  ): Promise<{ users: string[]; cursor: string }> {
    const { thread } = await this.load(this.deps.db, actor, rawId);
    const after = cursor ? Buffer.from(cursor, "base64url").toString("utf8") : null;
    const rows = await store.threadMembersAfter(this.deps.db, thread.id, after, limit + 1);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return { users: page, cursor: rows.length > limit && last ? Buffer.from(last).toString("base64url") : "" };
  }

  async removeMember(actor: ImActor, rawId: string, username: string): Promise<void> {
    await inScope(this.deps, async (s) => {
      const { thread, a } = await this.load(s.tx, actor, rawId);
      this.requireModerator(thread, a);
      if (username === thread.owner && a.role !== "owner" && a.role !== "app") {
        throw denied("the creator of a thread cannot be removed");
      }
      if (!(await store.removeThreadMember(s.tx, thread.id, username))) {
        throw denied(`${username} is not in thread ${rawId}`);
      }
      await s.notify(
        [username],
        {
          ns: "muc",
          op: "kickThreadMember",
          kind: "group",
          mucId: String(thread.id),
          from: a.username ?? "admin",
          users: [username],
          detail: { name: thread.name, parentId: String(thread.muc_id) },
        },
        { durable: true },
      );
    });
  }

  private async page(options: { mucId?: number; member?: string; cursor: string | undefined; limit: number }) {
    const before = options.cursor ? Number(Buffer.from(options.cursor, "base64url").toString("utf8")) : null;
    const rows = await store.threadPage(this.deps.db, {
      ...(options.mucId !== undefined && { mucId: options.mucId }),
      ...(options.member !== undefined && { member: options.member }),
      beforeId: before !== null && Number.isSafeInteger(before) ? before : null,
      limit: options.limit + 1,
    });
    const page = rows.slice(0, options.limit);
    const last = page.at(-1);
    return {
      entities: page.map((t) => ({
        id: String(t.id),
        name: t.name,
        owner: t.owner,
        msgId: String(t.parent_msg_id),
        groupId: String(t.muc_id),
        created: t.created_at.getTime(),
      })),
      cursor: rows.length > options.limit && last ? Buffer.from(String(last.id)).toString("base64url") : "",
    };
  }

  /** Threads of a group (members of the group may list them). */
  async ofGroup(actor: ImActor, groupId: string, cursor: string | undefined, limit: number) {
    const a = await this.groups.access(this.deps.db, actor, groupId);
    this.groups.require(a, "member");
    return this.page({ mucId: a.muc.id, cursor, limit });
  }

  /** Threads the user joined, in one group or in all. */
  async joined(me: string, groupId: string | undefined, cursor: string | undefined, limit: number) {
    if (groupId === undefined) return this.page({ member: me, cursor, limit });
    const a = await this.groups.access(this.deps.db, { kind: "user", username: me }, groupId);
    this.groups.require(a, "member");
    return this.page({ mucId: a.muc.id, member: me, cursor, limit });
  }

  async detail(actor: ImActor, rawId: string): Promise<store.ThreadRow> {
    return (await this.load(this.deps.db, actor, rawId)).thread;
  }

  /** The last message of each thread (the caller must be in each thread's group). */
  async lastMessages(
    actor: ImActor,
    ids: string[],
  ): Promise<{ thread_id: string; last_message: Record<string, unknown> }[]> {
    const out: { thread_id: string; last_message: Record<string, unknown> }[] = [];
    for (const id of ids) {
      const { thread } = await this.load(this.deps.db, actor, id);
      const last =
        thread.last_message_id !== null ? await messages.findMessage(this.deps.db, thread.last_message_id) : undefined;
      out.push({
        thread_id: id,
        last_message:
          last && !last.recalled_at
            ? {
                id: String(last.id),
                from: last.from_user,
                to: `${last.to_target}@${IM_MUC_DOMAIN}`,
                timestamp: last.created_ms,
                payload: last.payload,
              }
            : {},
      });
    }
    return out;
  }
}
