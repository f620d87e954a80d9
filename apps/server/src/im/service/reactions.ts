import { imError, invalidParam } from "../errors";
import * as messages from "../store/messages";
import { allMemberNames } from "../store/members";
import * as store from "../store/reactions";
import { findThread } from "../store/threads";
import { inScope, type ImDeps, type Scope } from "./core";
import { canSeeMessage } from "./history";

/**
 * Reactions and reports (spec 02 §7). A user reacts to messages they can see: their own one-to-one
 * messages, or messages of groups they are in. One user adds a reaction once; a message carries at most
 * the configured number of distinct reactions. Reports need a message the reporter can see.
 */
export class ImReactions {
  constructor(private readonly deps: ImDeps) {}

  private async visible(
    db: Parameters<typeof canSeeMessage>[0],
    me: string,
    rawId: string,
  ): Promise<messages.MessageRow> {
    if (!/^\d{1,19}$/.test(rawId)) throw invalidParam("msgId");
    const row = await messages.findMessage(db, Number(rawId));
    if (!row || row.recalled_at) throw imError("messageNotFound", { id: rawId });
    if (!(await canSeeMessage(db, me, row))) {
      if (row.chat_type === "chat") throw imError("messageNotFound", { id: rawId });
      throw imError("reactionNotInGroup");
    }
    return row;
  }

  private async audience(s: Scope, row: messages.MessageRow): Promise<string[]> {
    if (row.chat_type === "chat") return [row.from_user, row.to_target];
    const mucId =
      row.thread_id !== null ? ((await findThread(s.tx, String(row.thread_id)))?.muc_id ?? 0) : Number(row.to_target);
    return allMemberNames(s.tx, mucId);
  }

  private async tell(
    s: Scope,
    row: messages.MessageRow,
    me: string,
    reaction: string,
    op: "create" | "delete",
  ): Promise<void> {
    const to = await this.audience(s, row);
    // The reaction's state after the change (count and first users), as the client shows it.
    const now = (await store.summary(s.tx, [row.id], me, 3)).find((x) => x.reaction === reaction);
    await s.notify(
      to,
      {
        ns: "notify",
        type: "reaction",
        from: me,
        detail: {
          msgId: String(row.id),
          from: row.from_user,
          to: row.to_target,
          chatType: row.chat_type,
          reaction,
          count: now?.count ?? 0,
          userList: now?.users ?? [],
          op: [{ operator: me, reactionType: op }],
        },
      },
      { durable: row.chat_type === "chat" },
    );
  }

  async add(me: string, msgId: string, reaction: string): Promise<void> {
    await inScope(this.deps, async (s) => {
      const row = await this.visible(s.tx, me, msgId);
      const existing = await store.distinctReactions(s.tx, row.id);
      if (!existing.includes(reaction) && existing.length >= this.deps.config.maxReactions) {
        throw imError("reactionLimit");
      }
      if (!(await store.addReaction(s.tx, row.id, reaction, me, s.now))) throw imError("reactionAlreadyAdded");
      await this.tell(s, row, me, reaction, "create");
    });
  }

  async remove(me: string, msgId: string, reaction: string): Promise<void> {
    await inScope(this.deps, async (s) => {
      const row = await this.visible(s.tx, me, msgId);
      if (!(await store.removeReaction(s.tx, row.id, reaction, me))) throw imError("reactionIllegal");
      await this.tell(s, row, me, reaction, "delete");
    });
  }

  /** Reactions of several messages (first three users of each, as the published service does). */
  async list(me: string, msgIds: string[]): Promise<{ msgId: string; reactionList: Record<string, unknown>[] }[]> {
    const rows: messages.MessageRow[] = [];
    for (const id of msgIds) rows.push(await this.visible(this.deps.db, me, id));
    const summary = await store.summary(
      this.deps.db,
      rows.map((r) => r.id),
      me,
      3,
    );
    return rows.map((r) => ({
      msgId: String(r.id),
      reactionList: summary
        .filter((x) => x.message_id === r.id)
        .map((x) => ({
          reactionId: `${r.id}-${x.reaction}`,
          reaction: x.reaction,
          count: x.count,
          userCount: x.count,
          state: x.mine,
          userList: x.users,
        })),
    }));
  }

  async detail(
    me: string,
    msgId: string,
    reaction: string,
    cursor: string | undefined,
    pageSize: number,
  ): Promise<Record<string, unknown>> {
    const row = await this.visible(this.deps.db, me, msgId);
    let after: { ms: number; username: string } | null = null;
    if (cursor) {
      try {
        const [ms, username] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as [unknown, unknown];
        if (typeof ms !== "number" || typeof username !== "string") throw new Error("bad cursor");
        after = { ms, username };
      } catch {
        throw invalidParam("currentPage");
      }
    }
    const users = await store.reactionUsersAfter(this.deps.db, row.id, reaction, after, pageSize + 1);
    const page = users.slice(0, pageSize);
    const last = page.at(-1);
    const [total] = (await store.summary(this.deps.db, [row.id], me, 0)).filter((x) => x.reaction === reaction);
    return {
      reactionId: `${row.id}-${reaction}`,
      reaction,
      count: total?.count ?? 0,
      userCount: total?.count ?? 0,
      state: total?.mine ?? false,
      userList: page.map((u) => u.username),
      cursor:
        users.length > pageSize && last
          ? Buffer.from(JSON.stringify([last.created_at.getTime(), last.username])).toString("base64url")
          : "",
    };
  }

  async report(me: string, msgId: string, type: string, reason: string): Promise<number> {
    return inScope(this.deps, async (s) => {
      if (!/^\d{1,19}$/.test(msgId)) throw imError("reportMessageNotFound");
      const row = await messages.findMessage(s.tx, Number(msgId));
      if (!row || !(await canSeeMessage(s.tx, me, row))) throw imError("reportMessageNotFound");
      return store.insertReport(s.tx, { reporter: me, messageId: row.id, type, reason, now: s.now });
    });
  }
}
