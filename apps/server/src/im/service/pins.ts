import { IM_LIMITS } from "@tessera/contracts";
import type { Executor } from "../../db/tx";
import { asGroupRefusal, imError, invalidParam } from "../errors";
import * as messages from "../store/messages";
import * as store from "../store/pins";
import { inScope, type ImDeps, type Scope } from "./core";
import type { ImHistory } from "./history";
import type { ImMucs } from "./mucs";

/**
 * Pinned messages (the client's pinMessage, unpinMessage, getServerPinnedMessages). A conversation's pins
 * are shared: in a one-to-one chat either side pins, in a group any member; a pinned message must belong
 * to that conversation and not be recalled. At most IM_LIMITS.pinnedMessages per conversation.
 */
export class ImPins {
  constructor(
    private readonly deps: ImDeps,
    private readonly groups: ImMucs,
    private readonly history: ImHistory,
  ) {}

  /** The conversation key and who shares its pins, after checking the caller belongs to it. */
  private async conversation(
    db: Executor,
    me: string,
    type: "chat" | "groupchat",
    to: string,
  ): Promise<{ key: string; audience: () => Promise<string[]> }> {
    if (type === "chat") {
      const peer = to.toLowerCase();
      if (!/^[a-z0-9_.-]{1,64}$/.test(peer)) throw invalidParam("to");
      return { key: messages.convKey("chat", me, peer), audience: () => Promise.resolve([me, peer]) };
    }
    const a = await this.groups.access(db, { kind: "user", username: me }, to);
    try {
      this.groups.require(a, "member");
    } catch (err) {
      throw asGroupRefusal(err);
    }
    return { key: messages.convKey("groupchat", me, to), audience: () => this.groups.memberNames(db, a.muc.id) };
  }

  private messageId(raw: string): number {
    if (!/^\d{1,19}$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw imError("pinIdIllegal");
    return Number(raw);
  }

  async set(
    me: string,
    type: "chat" | "groupchat",
    to: string,
    rawId: string,
    on: boolean,
    resource: string | undefined,
  ): Promise<void> {
    const id = this.messageId(rawId);
    await inScope(this.deps, async (s) => {
      const conv = await this.conversation(s.tx, me, type, to);
      if (on) {
        const row = await messages.findMessage(s.tx, id);
        if (!row || row.conv_key !== conv.key || row.recalled_at) throw imError("pinNotFound");
        // Pinning a pinned message again changes nothing (and is no error, even at the limit).
        if (await store.isPinned(s.tx, conv.key, id)) return;
        if ((await store.pinCount(s.tx, conv.key)) >= IM_LIMITS.pinnedMessages) {
          throw imError("maxLimit", { what: "pinned messages", max: IM_LIMITS.pinnedMessages });
        }
        if (!(await store.pin(s.tx, conv.key, id, me, s.nowMs))) return;
      } else if (!(await store.unpin(s.tx, conv.key, id))) {
        throw imError("pinNotFound");
      }
      await this.tell(
        s,
        await conv.audience(),
        me,
        { op: on ? "pin" : "unpin", to, type, messageId: String(id), time: s.nowMs },
        resource,
      );
    });
  }

  private async tell(
    s: Scope,
    audience: string[],
    me: string,
    detail: Record<string, unknown>,
    resource: string | undefined,
  ): Promise<void> {
    await s.notify(
      audience,
      { ns: "notify", type: "pin", from: me, detail },
      { durable: true, skipResource: resource },
    );
  }

  /** A page of pins, newest first, each with its message in the REST JSON form. */
  async list(
    me: string,
    type: "chat" | "groupchat",
    to: string,
    cursor: string | undefined,
    limit: number,
  ): Promise<{ msg_infos: Record<string, unknown>[]; cursor: string }> {
    let after: { ms: number; id: number } | null = null;
    if (cursor) {
      const m = /^(\d{1,16})_(\d{1,19})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
      if (!m?.[1] || !m[2]) throw invalidParam("cursor");
      after = { ms: Number(m[1]), id: Number(m[2]) };
    }
    const conv = await this.conversation(this.deps.db, me, type, to);
    const rows = await store.pinPage(this.deps.db, conv.key, after, limit + 1);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      msg_infos: page.map((r) => ({
        message: this.history.restMessage(r.message),
        pin_opt_at: r.pinned_ms,
        pin_operator: r.pinned_by,
      })),
      cursor:
        rows.length > limit && last ? Buffer.from(`${last.pinned_ms}_${last.message.id}`).toString("base64url") : "",
    };
  }
}
