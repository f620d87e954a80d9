import { IM_MUC_DOMAIN } from "@tessera/contracts";
import { readFields, Writer } from "../proto/wire";
import { decodeJid } from "../proto/decode";
import type { DecodedMeta } from "../proto/decode";
import type { Outcome, Who } from "./chat";
import { serverMetaId } from "./chat";
import type { GatewayCtx } from "./context";
import { metaOf, NS, STATUS } from "./frames";
import { refuse } from "./reasons";

/** MUCBody operations a client sends over the socket: chat-room join and leave (easemob-wire §3k). */
const OP = { JOIN: 2, LEAVE: 3 } as const;

export async function handleMuc(ctx: GatewayCtx, who: Who, meta: DecodedMeta): Promise<Outcome> {
  let roomId = "";
  let operation = -1;
  let isChatroom = false;
  for (const f of readFields(meta.payload)) {
    if (f.field === 1 && f.bytes) roomId = decodeJid(f.bytes).name;
    else if (f.field === 2) operation = Number(f.varint ?? -1n);
    else if (f.field === 7) isChatroom = f.varint === 1n;
  }
  if (!isChatroom || !/^\d{1,18}$/.test(roomId)) throw refuse("group ID illegal, please check it", STATUS.FAIL);
  const actor = { kind: "user" as const, username: who.username, resource: who.resource };
  const nowMs = ctx.deps.clock.now().getTime();
  const id = serverMetaId(nowMs);
  if (operation === OP.LEAVE) {
    await ctx.services.rooms.leave(actor, roomId);
    return { serverId: id, nowMs };
  }
  if (operation !== OP.JOIN) throw refuse(`operation ${operation} is not accepted`, STATUS.WRONG_PARAMETER);
  const j = await ctx.services.rooms.join(actor, roomId);
  const info = JSON.stringify({
    [who.username]: {
      is_all_mute: j.muted,
      create_timestamp: j.created,
      is_in_white_list: j.allowlisted,
      member_count: j.memberCount,
      mute_duration: j.muteExpire,
    },
  });
  const body = new Writer();
  body.message(1, (m) => m.string(1, ctx.deps.appKey).string(2, roomId).string(3, IM_MUC_DOMAIN));
  body.varint(2, OP.JOIN);
  body.varint(7, true);
  body.message(8, (s) => s.varint(1, 0).string(3, info));
  return { serverId: id, nowMs, metas: [metaOf({ id, nowMs, ns: NS.MUC, payload: body.finish() })] };
}
