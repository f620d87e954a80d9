import type { ImSilentReq } from "@tessera/contracts";
import { updateUser, findUser } from "../store/users";
import * as store from "../store/silent";
import { imError } from "../errors";
import { inScope, type ImDeps, type Scope } from "./core";

/**
 * Silent mode (spec 03 §7): for all conversations or per conversation, a remind type (ALL, AT, NONE), a
 * do-not-disturb duration (kept as its end time on the app clock) and a daily interval "h:m-h:m". Setting
 * a conversation to DEFAULT clears it. Also the language push notifications are translated into.
 */
export interface SilentSetting {
  type?: string;
  ignoreDuration?: number;
  ignoreInterval?: string;
}

export class ImSilent {
  constructor(private readonly deps: ImDeps) {}

  present(row: store.SilentRow | undefined): SilentSetting {
    if (!row) return {};
    const now = this.deps.clock.now().getTime();
    return {
      ...(row.remind_type !== null && { type: row.remind_type }),
      ...(row.ignore_until_ms !== null && row.ignore_until_ms > now && { ignoreDuration: row.ignore_until_ms }),
      ...(row.ignore_interval !== null && { ignoreInterval: row.ignore_interval }),
    };
  }

  /**
   * Changes a setting; the user's other devices hear of it (notify `user_notification_mute`), stored for
   * the ones offline. `resource` is the device that made the change, which already knows.
   */
  async set(
    me: string,
    scope: store.SilentScope,
    target: string,
    req: ImSilentReq,
    resource?: string,
  ): Promise<SilentSetting> {
    return inScope(this.deps, async (s) => {
      const setting = await this.write(s, me, scope, target, req);
      await s.notify(
        [me],
        { ns: "notify", type: "user_notification_mute", from: me, detail: muteEntry(scope, target, setting, resource) },
        { durable: true, skipResource: resource },
      );
      return setting;
    });
  }

  private async write(
    s: Scope,
    me: string,
    scope: store.SilentScope,
    target: string,
    req: ImSilentReq,
  ): Promise<SilentSetting> {
    if ("type" in req && req.type === "DEFAULT") {
      await store.clearSilent(s.tx, me, scope, target);
      return {};
    }
    const row = await store.putSilent(
      s.tx,
      {
        username: me,
        scope,
        target,
        ...("type" in req && req.type !== "DEFAULT" && { remindType: req.type }),
        ...("ignoreDuration" in req && { ignoreUntilMs: s.nowMs + req.ignoreDuration }),
        ...("ignoreInterval" in req && { ignoreInterval: req.ignoreInterval }),
      },
      s.now,
    );
    return this.present(row);
  }

  async get(me: string, scope: store.SilentScope, target: string): Promise<SilentSetting> {
    const [row] = await store.silentOf(this.deps.db, me, scope, [target]);
    return this.present(row);
  }

  async batch(
    me: string,
    users: string[],
    groups: string[],
  ): Promise<{ user: Record<string, SilentSetting>; group: Record<string, SilentSetting> }> {
    const u = await store.silentOf(this.deps.db, me, "chat", users);
    const g = await store.silentOf(this.deps.db, me, "group", groups);
    return {
      user: Object.fromEntries(users.map((id) => [id, this.present(u.find((r) => r.target === id))])),
      group: Object.fromEntries(groups.map((id) => [id, this.present(g.find((r) => r.target === id))])),
    };
  }

  async remindTypes(
    me: string,
    cursor: string | undefined,
    limit: number,
  ): Promise<{ items: Record<string, string>[]; cursor: string }> {
    let after: { scope: store.SilentScope; target: string } | null = null;
    if (cursor) {
      const [scope, target] = Buffer.from(cursor, "base64url").toString("utf8").split("\u0000");
      if ((scope === "chat" || scope === "group") && target !== undefined) after = { scope, target };
    }
    const rows = await store.remindTypePage(this.deps.db, me, after, limit + 1);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      items: page.map((r): Record<string, string> =>
        r.scope === "chat"
          ? { user: r.target, value: r.remind_type ?? "" }
          : { group: r.target, value: r.remind_type ?? "" },
      ),
      cursor: rows.length > limit && last ? Buffer.from(`${last.scope}\u0000${last.target}`).toString("base64url") : "",
    };
  }

  async setLanguage(me: string, language: string): Promise<string> {
    return inScope(this.deps, async (s) => {
      const row = await updateUser(s.tx, me, { push_language: language }, s.now);
      if (!row) throw imError("userNotFound", { username: me });
      return language;
    });
  }

  async language(me: string): Promise<string> {
    const user = await findUser(this.deps.db, me);
    if (!user) throw imError("userNotFound", { username: me });
    return user.push_language ?? "";
  }
}

/**
 * One entry of the `user_notification_mute` notify as the client reads it (easemob-wire §3j): the
 * operating device, the setting, and `user` or `group` naming the conversation. The client takes an entry
 * whose setting has an `ignoreInterval` key for the all-conversations setting, so that one always carries
 * the key ("" when no interval is set) and a conversation's never does (a per-conversation interval is
 * left out; the device reads it back with getSilentModeForConversation).
 */
function muteEntry(
  scope: store.SilentScope,
  target: string,
  setting: SilentSetting,
  resource: string | undefined,
): Record<string, unknown> {
  const operator = { operator_resource: resource ?? "" };
  if (scope === "all") return { ...operator, data: { ...setting, ignoreInterval: setting.ignoreInterval ?? "" } };
  const { ignoreInterval: _interval, ...data } = setting;
  return { ...operator, data, ...(scope === "chat" ? { user: target } : { group: target }) };
}
