import { IM_MUC_DOMAIN, IM_USER_DOMAIN } from "@tessera/contracts";
import { decodeMessageBody, type DecodedBody, type DecodedMeta } from "../proto/decode";
import { Writer } from "../proto/wire";
import { inScope, type Scope } from "../service/core";
import { enqueueNotices, mucQueue, userQueue } from "../store/inbox";
import { findMessage, updatePayload, type MessageRow } from "../store/messages";
import { encodeMeta } from "../proto/message";
import { allMemberNames, isMember } from "../store/members";
import { recordReadAck, readAckCount } from "../store/mucs";
import type { ChatType } from "../tables";
import type { GatewayCtx } from "./context";
import { metaOf, NS, STATUS, type Jid } from "./frames";
import { checkCombine } from "./combine";
import { bodyOf, BodyError, finiteBody, payloadOf } from "../proto/payload";
import { REASON, refuse } from "./reasons";

/**
 * Uplink metas of the CHAT namespace: messages, receipts, recalls and edits (easemob-wire §3g-i). Each
 * returns the ack to send; a message is acknowledged only after its transaction committed, and the
 * devices to wake are woken after that.
 */

export interface Who {
  username: string;
  resource: string;
}

export interface Outcome {
  serverId: bigint | number;
  nowMs: number;
  metas?: Uint8Array[];
  /** Runs after the ack went out (wake-ups). */
  after?: () => void;
}

const CHAT_TYPES: Record<number, ChatType> = { 1: "chat", 2: "groupchat", 3: "chatroom" };
/** Meta.routetype: to the devices online now only; to the listed members only. */
const ROUTE_ONLINE = 1;
const ROUTE_DIRECT = 2;
const BODY = { READ_ACK: 4, DELIVER_ACK: 5, RECALL: 6, CHANNEL_ACK: 7, EDIT: 8 } as const;
/** The most messages one read receipt names (the client sends a conversation's unread page at most). */
const READ_ACK_MAX = 100;

let counter = 0;
/** Ids of metas the gateway makes (receipts, recalls): time-ordered and far above message ids. */
export function serverMetaId(nowMs: number): bigint {
  counter = (counter + 1) & 0xfff;
  return (BigInt(nowMs) << 22n) | (1n << 12n) | BigInt(counter);
}

/**
 * Not async itself: each case returns its handler's promise as it is (an async layer here was a promise
 * and a tick more per message). A refusal found before that is thrown to the caller, which awaits this
 * in a try (session.ts answer).
 */
export function handleChat(ctx: GatewayCtx, who: Who, meta: DecodedMeta): Promise<Outcome> {
  if (meta.payload.length > ctx.options.maxBodyBytes) throw refuse(REASON.tooLarge, STATUS.PERMISSION_DENIED);
  const body = decodeMessageBody(meta.payload);
  if (body.from && body.from.name !== "" && body.from.name.toLowerCase() !== who.username) {
    throw refuse("the sender is not the logged-in user", STATUS.WRONG_PARAMETER);
  }
  switch (body.type) {
    case BODY.READ_ACK:
      return readAck(ctx, who, meta, body);
    case BODY.DELIVER_ACK:
      return deliverAck(ctx, who, meta, body);
    case BODY.CHANNEL_ACK:
      return channelAck(ctx, who, meta, body);
    case BODY.RECALL:
      return recall(ctx, who, meta, body);
    case BODY.EDIT:
      return edit(ctx, who, meta, body);
    default: {
      const chatType = CHAT_TYPES[body.type];
      if (!chatType) throw refuse(`unknown message type ${body.type}`, STATUS.WRONG_PARAMETER);
      return send(ctx, who, meta, body, chatType);
    }
  }
}

function target(meta: DecodedMeta, body: DecodedBody): { name: string; muc: boolean } {
  const to = meta.to ?? body.to;
  const name = to?.name ?? "";
  if (name === "") throw refuse("the message has no receiver", STATUS.WRONG_PARAMETER);
  const muc = to?.domain === IM_MUC_DOMAIN;
  return { name: muc ? name : name.toLowerCase(), muc };
}

async function send(
  ctx: GatewayCtx,
  who: Who,
  meta: DecodedMeta,
  body: DecodedBody,
  chatType: ChatType,
): Promise<Outcome> {
  const to = target(meta, body).name;
  let payload;
  try {
    payload = payloadOf(body, chatType, who.username, to);
  } catch (err) {
    if (err instanceof BodyError || err instanceof SyntaxError) {
      throw refuse(REASON.editFormat.replace("edit", "message"), STATUS.WRONG_PARAMETER);
    }
    throw err;
  }
  // Built from decoded protobuf fields, the payload has its schema's shape by construction (no schema
  // pass per message: it copied the whole payload); a double that is not a number is what remains.
  const first = payload.bodies[0];
  if (first && !finiteBody(first)) throw refuse("the message body is not valid", STATUS.WRONG_PARAMETER);
  if (first?.type === "combine") await checkCombine(ctx.services.files, first);
  const directed =
    chatType !== "chat" && meta.routetype === ROUTE_DIRECT ? meta.directedUsers.map((u) => u.toLowerCase()) : null;
  if (directed && (directed.length === 0 || directed.length > ctx.options.maxDirectedUsers)) {
    throw refuse(REASON.directedLimit);
  }
  const input = {
    chatType,
    from: who.username,
    fromResource: who.resource,
    to,
    body: first ?? {},
    // Client ids restart per process and differ by time zone (easemob-wire §6.10): scoped by device.
    clientId: `${who.resource}:${meta.id}`,
    bodyPb: meta.payload,
    directedUsers: directed,
    onlineOnly: meta.routetype === ROUTE_ONLINE && chatType !== "chatroom",
  };
  const sent = await ctx.batcher.append(input, payload);
  const id = Number(sent.id);
  return {
    serverId: id,
    nowMs: sent.timestamp,
    after: () => {
      if (sent.duplicate) return;
      if (input.onlineOnly) {
        const queue = chatType === "chat" ? userQueue(who.username) : mucQueue(to);
        const toJid = chatType === "chat" ? userJid(ctx, to) : mucJid(ctx, to);
        ctx.hub.push(sent.recipients, queue, [
          chatMeta(ctx, who, toJid, BigInt(id), sent.timestamp, meta.payload, meta.extRaw),
        ]);
        // The sender's other devices see it in the conversation with the peer (or the group).
        ctx.hub.push(
          [who.username],
          chatType === "chat" ? userQueue(to) : queue,
          [chatMeta(ctx, who, toJid, BigInt(id), sent.timestamp, meta.payload, meta.extRaw)],
          who,
        );
      } else if (chatType === "chat" || chatType === "groupchat") {
        // The entries just written, pushed to the devices online here with the meta a pull would build.
        const m = encodeMeta(ctx.deps.appKey, {
          id,
          from: who.username,
          fromResource: who.resource,
          to,
          chatType,
          timestamp: sent.timestamp,
          body: meta.payload,
        });
        const theirs: (typeof sent.inbox)[number][] = [];
        const mine: (typeof sent.inbox)[number][] = [];
        for (const e of sent.inbox) (e.username === who.username ? mine : theirs).push(e);
        ctx.hub.offer(chatType === "chat" ? userQueue(who.username) : mucQueue(to), theirs, m);
        ctx.hub.offer(chatType === "chat" ? userQueue(to) : mucQueue(to), mine, m, who.resource);
      } else {
        void pushRoom(ctx, who, to, id, sent.timestamp, meta, directed);
      }
    },
  };
}

/** Room messages are not queued: they go to the members online now (easemob-wire §3k). */
/** The room's priority tag (0 high, 1 normal, 2 low) and broadcast flag travel in Meta.ext, as sent. */
async function pushRoom(
  ctx: GatewayCtx,
  who: Who,
  roomId: string,
  id: number,
  nowMs: number,
  uplink: DecodedMeta,
  directed: readonly string[] | null,
): Promise<void> {
  const only = directed ? new Set(directed) : null;
  const members = (await allMemberNames(ctx.deps.db, Number(roomId))).filter((u) => !only || only.has(u));
  const appKey = ctx.deps.appKey;
  const m = metaOf({
    id,
    from: { appKey, name: who.username, domain: IM_USER_DOMAIN, clientResource: who.resource },
    to: { appKey, name: roomId, domain: IM_MUC_DOMAIN },
    nowMs,
    ns: NS.CHAT,
    payload: uplink.payload,
    ext: uplink.extRaw,
  });
  ctx.hub.push(members, mucQueue(roomId), [m], who);
}

/** Stores a meta for users' devices (durable, ordered with their messages) and wakes them after commit. */
async function forward(
  s: Scope,
  rows: readonly { users: readonly string[]; queue: string; skip?: string | undefined }[],
  meta: Uint8Array,
): Promise<void> {
  const notice = { ns: "raw", meta: Buffer.from(meta).toString("base64") };
  await enqueueNotices(
    s.tx,
    rows.flatMap((r) => r.users.map((username) => ({ username, queue: r.queue, notice, skipResource: r.skip }))),
    s.now,
  );
}

function chatMeta(
  ctx: GatewayCtx,
  who: Who,
  to: Jid,
  id: bigint,
  nowMs: number,
  body: Uint8Array,
  ext?: DecodedMeta["extRaw"],
): Uint8Array {
  return metaOf({
    id,
    from: { appKey: ctx.deps.appKey, name: who.username, domain: IM_USER_DOMAIN, clientResource: who.resource },
    to,
    nowMs,
    ns: NS.CHAT,
    payload: body,
    ...(ext && { ext }),
  });
}

const userJid = (ctx: GatewayCtx, name: string): Jid => ({ appKey: ctx.deps.appKey, name, domain: IM_USER_DOMAIN });
const mucJid = (ctx: GatewayCtx, name: string): Jid => ({ appKey: ctx.deps.appKey, name, domain: IM_MUC_DOMAIN });

async function messageOrRefuse(ctx: GatewayCtx, id: bigint | undefined): Promise<MessageRow> {
  const n = Number(id ?? 0n);
  const row = Number.isSafeInteger(n) && n > 0 ? await findMessage(ctx.deps.db, n) : undefined;
  if (!row) throw refuse(REASON.editNotFound);
  return row;
}

/** Who sees a conversation besides `me`: the peer, or the group's members. */
async function audience(s: Scope, row: MessageRow, me: string): Promise<string[]> {
  if (row.chat_type === "chat") return [row.from_user === me ? row.to_target : row.from_user].filter((u) => u !== me);
  if (row.chat_type === "chatroom") return [];
  const members = await allMemberNames(s.tx, Number(row.to_target));
  return members.filter((u) => u !== me);
}

/** The queue a user's devices see a conversation with `me` in. */
const queueOf = (row: MessageRow, me: string) => (row.chat_type === "chat" ? userQueue(me) : mucQueue(row.to_target));
const ownQueueOf = (row: MessageRow, me: string) =>
  row.chat_type === "chat" ? userQueue(row.from_user === me ? row.to_target : row.from_user) : mucQueue(row.to_target);

/** The messages a read receipt names: ackMessageId (4.x), or ackMessageIds (the chat SDK 5), at most READ_ACK_MAX. */
async function ackedMessages(ctx: GatewayCtx, body: DecodedBody): Promise<MessageRow[]> {
  if (body.ackMessageId !== undefined || !body.ackMessageIds?.length) {
    return [await messageOrRefuse(ctx, body.ackMessageId)];
  }
  const ids = [...new Set(body.ackMessageIds)].slice(0, READ_ACK_MAX);
  const rows: MessageRow[] = [];
  for (const id of ids) rows.push(await messageOrRefuse(ctx, id));
  return rows;
}

async function readAck(ctx: GatewayCtx, who: Who, meta: DecodedMeta, body: DecodedBody): Promise<Outcome> {
  const rows = await ackedMessages(ctx, body);
  const first = rows[0] as MessageRow;
  const nowMs = ctx.deps.clock.now().getTime();
  const id = serverMetaId(nowMs);
  if (first.chat_type === "chat") {
    const peer = first.from_user === who.username ? first.to_target : first.from_user;
    // Every message named is of this one conversation; the newest marks how far it is read.
    for (const row of rows) {
      if (row.chat_type !== "chat") throw refuse(REASON.editDenied);
      if (row.from_user !== who.username && row.to_target !== who.username) throw refuse(REASON.editDenied);
      if ((row.from_user === who.username ? row.to_target : row.from_user) !== peer) throw refuse(REASON.editDenied);
    }
    const newest = rows.reduce((a, b) => (b.id > a.id ? b : a));
    await ctx.services.history.markRead(who.username, "chat", peer, newest.id);
    const m = chatMeta(ctx, who, userJid(ctx, peer), id, nowMs, meta.payload);
    await inScope(ctx.deps, (s) =>
      forward(
        s,
        [
          { users: [peer], queue: userQueue(who.username) },
          { users: [who.username], queue: userQueue(peer), skip: who.resource },
        ],
        m,
      ),
    );
    return {
      serverId: id,
      nowMs,
      after: () => (
        ctx.hub.wake([peer], userQueue(who.username)),
        ctx.hub.wake([who.username], userQueue(peer), who.resource)
      ),
    };
  }
  for (const row of rows) if (row.chat_type !== "groupchat") throw refuse(REASON.editDenied);
  // Group read receipts: recorded per reader and message (the read-users list is a REST call), each
  // counted to its sender.
  const senders = await inScope(ctx.deps, async (s) => {
    const told = new Set<string>();
    for (const row of rows) {
      if (!(await isMember(s.tx, Number(row.to_target), who.username))) throw refuse(REASON.notJoined);
      await recordReadAck(s.tx, row.id, who.username, s.now);
      const n = await readAckCount(s.tx, row.id);
      if (row.from_user === who.username) continue;
      const w = new Writer().varint(1, BODY.READ_ACK);
      w.message(2, (j) => j.string(1, ctx.deps.appKey).string(2, who.username).string(3, IM_USER_DOMAIN));
      w.message(3, (j) => j.string(1, ctx.deps.appKey).string(2, row.to_target).string(3, IM_MUC_DOMAIN));
      w.message(5, (kv) => kv.string(1, "group_read_count").varint(2, 7).string(6, String(n)));
      w.varint(6, row.id);
      w.message(7, (c) => c.varint(1, true));
      if (body.ackContent !== undefined) w.string(8, body.ackContent);
      await forward(
        s,
        [{ users: [row.from_user], queue: mucQueue(row.to_target) }],
        // Its own meta id per message: the sender's client tells receipts apart by it.
        chatMeta(ctx, who, mucJid(ctx, row.to_target), told.size === 0 ? id : serverMetaId(nowMs), nowMs, w.finish()),
      );
      told.add(`${row.from_user}\u0000${row.to_target}`);
    }
    return told;
  });
  return {
    serverId: id,
    nowMs,
    after: () => {
      for (const key of senders) {
        const [sender, group] = key.split("\u0000") as [string, string];
        ctx.hub.wake([sender], mucQueue(group));
      }
    },
  };
}

async function deliverAck(ctx: GatewayCtx, who: Who, meta: DecodedMeta, body: DecodedBody): Promise<Outcome> {
  const row = await messageOrRefuse(ctx, body.ackMessageId);
  const nowMs = ctx.deps.clock.now().getTime();
  const id = serverMetaId(nowMs);
  if (row.chat_type !== "chat" || row.to_target !== who.username || row.from_user === who.username) {
    return { serverId: id, nowMs };
  }
  const m = chatMeta(ctx, who, userJid(ctx, row.from_user), id, nowMs, meta.payload);
  await inScope(ctx.deps, (s) => forward(s, [{ users: [row.from_user], queue: userQueue(who.username) }], m));
  return { serverId: id, nowMs, after: () => ctx.hub.wake([row.from_user], userQueue(who.username)) };
}

/** The conversation is read: unread counts drop to 0 on every device of the user, and the peer learns it. */
async function channelAck(ctx: GatewayCtx, who: Who, meta: DecodedMeta, body: DecodedBody): Promise<Outcome> {
  const t = target(meta, body);
  const nowMs = ctx.deps.clock.now().getTime();
  const id = serverMetaId(nowMs);
  await ctx.services.history.markRead(who.username, t.muc ? "groupchat" : "chat", t.name, null);
  const m = chatMeta(ctx, who, t.muc ? mucJid(ctx, t.name) : userJid(ctx, t.name), id, nowMs, meta.payload);
  const own = t.muc ? mucQueue(t.name) : userQueue(t.name);
  await inScope(ctx.deps, (s) =>
    forward(
      s,
      [
        ...(t.muc || t.name === who.username ? [] : [{ users: [t.name], queue: userQueue(who.username) }]),
        { users: [who.username], queue: own, skip: who.resource },
      ],
      m,
    ),
  );
  return {
    serverId: id,
    nowMs,
    after: () => {
      if (!t.muc && t.name !== who.username) ctx.hub.wake([t.name], userQueue(who.username));
      ctx.hub.wake([who.username], own, who.resource);
    },
  };
}

async function recall(ctx: GatewayCtx, who: Who, meta: DecodedMeta, body: DecodedBody): Promise<Outcome> {
  const row = await messageOrRefuse(ctx, body.ackMessageId);
  const nowMs = ctx.deps.clock.now().getTime();
  if (row.recalled_at) throw refuse(REASON.editNotFound);
  if (row.from_user === who.username && nowMs - row.created_ms > ctx.options.recallWindowMs) {
    throw refuse(REASON.recallTimeLimit);
  }
  await ctx.services.history.recall({ kind: "user", username: who.username, resource: who.resource }, row.id);
  const id = serverMetaId(nowMs);
  const to =
    row.chat_type === "chat"
      ? userJid(ctx, row.from_user === who.username ? row.to_target : row.from_user)
      : mucJid(ctx, row.to_target);
  const m = chatMeta(ctx, who, to, id, nowMs, meta.payload);
  let users: string[] = [];
  await inScope(ctx.deps, async (s) => {
    users = await audience(s, row, who.username);
    await forward(
      s,
      [
        { users, queue: queueOf(row, who.username) },
        { users: [who.username], queue: ownQueueOf(row, who.username), skip: who.resource },
      ],
      m,
    );
  });
  return {
    serverId: id,
    nowMs,
    after: () => {
      if (row.chat_type === "chatroom") void pushRoomMeta(ctx, who, row.to_target, m);
      ctx.hub.wake(users, queueOf(row, who.username));
      ctx.hub.wake([who.username], ownQueueOf(row, who.username), who.resource);
    },
  };
}

async function pushRoomMeta(ctx: GatewayCtx, who: Who, roomId: string, m: Uint8Array): Promise<void> {
  const members = await allMemberNames(ctx.deps.db, Number(roomId));
  ctx.hub.push(members, mucQueue(roomId), [m], who);
}

/**
 * Edits a text or custom message (its sender only, at most editLimit times). The ack carries the
 * edit_msg notice the client builds its reply from; the others get the EDIT body with that JSON as meta.
 */
async function edit(ctx: GatewayCtx, who: Who, meta: DecodedMeta, body: DecodedBody): Promise<Outcome> {
  const row = await messageOrRefuse(ctx, body.editMessageId);
  if (row.recalled_at) throw refuse(REASON.editNotFound);
  if (row.from_user !== who.username) throw refuse(REASON.editDenied);
  const old = row.payload.bodies[0];
  const content = body.contents[0];
  if (!old || !content || (old.type !== "txt" && old.type !== "custom")) throw refuse(REASON.editFormat);
  let next;
  try {
    next = bodyOf(content);
  } catch {
    throw refuse(REASON.editFormat);
  }
  if (next.type !== old.type) throw refuse(REASON.editFormat);
  const prev: unknown = row.payload.meta?.edit_msg;
  const count =
    (prev && typeof prev === "object" && "count" in prev && typeof prev.count === "number" ? prev.count : 0) + 1;
  if (count > ctx.options.editLimit) throw refuse(REASON.editLimit);
  const nowMs = ctx.deps.clock.now().getTime();
  const chatTypeName =
    row.chat_type === "chat" ? "chat:user" : row.chat_type === "groupchat" ? "chat:group" : "chat:room";
  const editMsg = {
    count,
    operator: who.username,
    edit_time: nowMs,
    sender: row.from_user,
    send_time: row.created_ms,
    chat_type: chatTypeName,
  };
  const payload = {
    ...row.payload,
    bodies: [next],
    ...(body.editScope === 2 && { ext: Object.fromEntries(body.ext.map((kv) => [kv.key, kv.value])) }),
    meta: { ...(row.payload.meta ?? {}), edit_msg: editMsg },
  };
  const metaJson = JSON.stringify({ edit_msg: editMsg });
  // Forwarded EDIT: the client's body with MessageBody.meta (field 9) appended.
  const forwarded = new Writer();
  const fwd = concat(meta.payload, forwarded.string(9, metaJson).finish());
  const id = serverMetaId(nowMs);
  const to = row.chat_type === "chat" ? userJid(ctx, row.to_target) : mucJid(ctx, row.to_target);
  const m = chatMeta(ctx, who, to, id, nowMs, fwd);
  let users: string[] = [];
  await inScope(ctx.deps, async (s) => {
    // The stored protobuf is rebuilt from the JSON form on the next history read.
    await updatePayload(s.tx, row.id, payload, null);
    users = await audience(s, row, who.username);
    await forward(
      s,
      [
        { users, queue: queueOf(row, who.username) },
        { users: [who.username], queue: ownQueueOf(row, who.username), skip: who.resource },
      ],
      m,
    );
  });
  const notifyMeta = metaOf({ id, nowMs, ns: NS.NOTIFY, payload: Buffer.from(metaJson, "utf8") });
  return {
    serverId: id,
    nowMs,
    metas: [notifyMeta],
    after: () => {
      if (row.chat_type === "chatroom") void pushRoomMeta(ctx, who, row.to_target, m);
      ctx.hub.wake(users, queueOf(row, who.username));
      ctx.hub.wake([who.username], ownQueueOf(row, who.username), who.resource);
    },
  };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
