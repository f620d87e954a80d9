import { IM_ATTRIBUTE_ERRORS, IM_LIMITS, imErrorText } from "@tessera/contracts";
import { denied } from "../../errors";
import * as store from "../../store/mucs";
import { inScope, type ImActor } from "../core";
import { MucGroupFeatures } from "./groups";
import { roomAttributesDetail } from "./base";

/** What only chat rooms have: the room list and room attributes (ImMucs, service/mucs.ts). */
export class MucRoomFeatures extends MucGroupFeatures {
  async rooms(offset: number, limit: number): Promise<store.MucRow[]> {
    return store.roomPage(this.deps.db, offset, limit);
  }
  /* ---------- chat-room attributes ---------- */

  async roomAttributes(actor: ImActor, rawId: string, keys: string[] | undefined): Promise<Record<string, string>> {
    const a = await this.access(this.deps.db, actor, rawId);
    this.require(a, "member");
    const rows = await store.roomAttrs(this.deps.db, a.muc.id, keys);
    return Object.fromEntries(rows.map((r) => [r.key, r.value]));
  }

  /**
   * Sets chat-room attributes. Each key is set or refused on its own: a key another member set needs
   * `forced` (owner or admin only); keys and values must be legal and within the limits.
   */
  async setRoomAttributes(
    actor: ImActor,
    rawId: string,
    pathUser: string,
    metaData: Record<string, string>,
    options: { autoDelete: boolean; forced: boolean },
  ): Promise<{ successKeys: string[]; errorKeys: Record<string, string> }> {
    return inScope(this.deps, async (s) => {
      const a = await this.access(s.tx, actor, rawId, { lock: s });
      this.require(a, "member");
      const me = a.username ?? pathUser;
      if (a.username && a.username !== pathUser) throw denied("a user may set attributes only as itself");
      if (options.forced) this.require(a, "admin");
      const existing = new Map((await store.roomAttrs(s.tx, a.muc.id)).map((r) => [r.key, r]));
      const errorKeys: Record<string, string> = {};
      const rows: { key: string; value: string; owner: string; autoDelete: boolean }[] = [];
      let count = existing.size;
      for (const [key, value] of Object.entries(metaData)) {
        if (!/^[a-zA-Z0-9_.-]{1,128}$/.test(key) || value.length === 0) {
          errorKeys[key] = imErrorText(IM_ATTRIBUTE_ERRORS.illegal, { key });
        } else if (value.length > IM_LIMITS.roomAttributeValueLength) {
          errorKeys[key] = imErrorText(IM_ATTRIBUTE_ERRORS.tooLong, { key });
        } else {
          const prev = existing.get(key);
          if (prev && prev.owner !== me && !options.forced) {
            errorKeys[key] = imErrorText(IM_ATTRIBUTE_ERRORS.notOwner, { key });
          } else if (!prev && count >= this.deps.config.maxRoomAttributes) errorKeys[key] = IM_ATTRIBUTE_ERRORS.tooMany;
          else {
            if (!prev) count++;
            rows.push({ key, value, owner: me, autoDelete: options.autoDelete });
          }
        }
      }
      await store.putRoomAttrs(s.tx, a.muc.id, rows, s.now);
      if (rows.length > 0) {
        await this.notifyMembers(s, { ...a, username: me }, "roomAttributesUpdate", {
          detail: roomAttributesDetail(
            rows.map((r) => r.key),
            Object.fromEntries(rows.map((r) => [r.key, r.value])),
          ),
        });
      }
      return { successKeys: rows.map((r) => r.key), errorKeys };
    });
  }

  async removeRoomAttributes(
    actor: ImActor,
    rawId: string,
    pathUser: string,
    keys: string[],
    forced: boolean,
  ): Promise<{ successKeys: string[]; errorKeys: Record<string, string> }> {
    return inScope(this.deps, async (s) => {
      const a = await this.access(s.tx, actor, rawId, { lock: s });
      this.require(a, "member");
      const me = a.username ?? pathUser;
      if (a.username && a.username !== pathUser) throw denied("a user may remove attributes only as itself");
      if (forced) this.require(a, "admin");
      const existing = new Map((await store.roomAttrs(s.tx, a.muc.id, keys)).map((r) => [r.key, r]));
      const errorKeys: Record<string, string> = {};
      const gone: string[] = [];
      for (const key of keys) {
        const prev = existing.get(key);
        if (!prev) errorKeys[key] = imErrorText(IM_ATTRIBUTE_ERRORS.illegal, { key });
        else if (prev.owner !== me && !forced) errorKeys[key] = imErrorText(IM_ATTRIBUTE_ERRORS.notOwner, { key });
        else gone.push(key);
      }
      await store.deleteRoomAttrs(s.tx, a.muc.id, gone);
      if (gone.length > 0) {
        await this.notifyMembers(s, { ...a, username: me }, "roomAttributesRemove", {
          detail: roomAttributesDetail(gone),
        });
      }
      return { successKeys: gone, errorKeys };
    });
  }
}
