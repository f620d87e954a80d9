import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { multipart } from "../../../test/im-harness";
import { decodeMessageBody, decodeMeta } from "../proto/decode";
import { encodeMessageBody } from "../proto/message";
import { Writer } from "../proto/wire";
import { countCombined } from "./combine";
import { startGatewayTest, type GatewayTest } from "./test-server";
import { pullFrame, sendFrame, type ServerFrame } from "./wire-client";

/** Combined messages: the count in the uploaded file (1 to 300) and the nesting level (at most 10). */
let g: GatewayTest;
let ann: { name: string; token: string };
let ben: { name: string; token: string };

beforeAll(async () => {
  g = await startGatewayTest();
  ann = await g.user("ann");
  ben = await g.user("ben");
});
afterAll(async () => {
  await g?.close();
});

/** A combine file of `n` messages, as the client builds it: "cm", length-prefixed Metas, a checksum byte. */
function combineFile(n: number): Buffer {
  const parts: Buffer[] = [Buffer.from("cm")];
  for (let i = 0; i < n; i++) {
    const meta = Buffer.from(
      new Writer()
        .varint(1, BigInt(1000 + i))
        .varint(4, BigInt(Date.now()))
        .finish(),
    );
    const len = Buffer.alloc(4);
    len.writeUInt32BE(meta.length, 0);
    parts.push(len, meta);
  }
  const body = Buffer.concat(parts);
  let x = 0;
  for (let i = 3; i < body.length; i += 2) x ^= body[i] ?? 0;
  return Buffer.concat([body, Buffer.from([x])]);
}

async function upload(data: Buffer): Promise<{ url: string; secret: string }> {
  const body = multipart({ filename: "combine", contentType: "application/octet-stream", data });
  const up = await g.im.call<{ uri: string; entities: { uuid: string; "share-secret": string }[] }>(
    "POST",
    "chatfiles",
    {
      token: ann.token,
      payload: body.payload,
      headers: { ...body.headers, "restrict-access": "true" },
    },
  );
  const e = up.body.entities[0];
  if (!e) throw new Error("upload failed");
  return { url: `${up.body.uri}/${e.uuid}`, secret: e["share-secret"] };
}

function combineBody(file: { url: string; secret: string }, level = 1): Uint8Array {
  return encodeMessageBody(g.appKey, {
    type: "chat",
    from: ann.name,
    to: ben.name,
    bodies: [
      {
        type: "combine",
        title: "Chat history",
        summary: "a: hi",
        url: file.url,
        secret: file.secret,
        combineLevel: level,
        msg: "[chat history]",
      },
    ],
    ext: {},
  });
}

test("countCombined reads the file format and refuses what is not one", () => {
  expect(countCombined(combineFile(1))).toBe(1);
  expect(countCombined(combineFile(300))).toBe(300);
  expect(countCombined(Buffer.from("not a combine file"))).toBeNull();
  expect(countCombined(combineFile(3).subarray(0, 20))).toBeNull();
});

describe("sending combined messages", () => {
  test("300 messages in the file are accepted and the receiver gets the combine body", async () => {
    const file = await upload(combineFile(300));
    const a = await g.login(ann.name, ann.token, "webim_c1");
    a.send(sendFrame(g.appKey, { id: 4001n, from: ann.name, to: ben.name, chatType: 1, text: "" }, combineBody(file)));
    expect((await a.take((f: ServerFrame) => f.sync?.metaId === 4001n)).sync?.status?.code).toBe(0);
    const b = await g.login(ben.name, ben.token, "webim_c2");
    b.send(pullFrame(g.appKey, { name: ann.name, domain: "easemob.com" }));
    const batch = await b.take((f) => f.sync?.queue?.name === ann.name);
    const content = decodeMessageBody(decodeMeta(batch.sync?.metas[0] ?? new Uint8Array()).payload).contents[0];
    expect(content).toMatchObject({ title: "Chat history", remotePath: file.url, combineLevel: 1 });
    a.close();
    b.close();
  });

  test("301 messages, an 11th level or an unreadable file are refused with their messages", async () => {
    const a = await g.login(ann.name, ann.token, "webim_c3");
    const cases: [bigint, Uint8Array, string][] = [
      [4002n, combineBody(await upload(combineFile(301))), "The number of combined messages exceeded the limit."],
      [4003n, combineBody(await upload(combineFile(2)), 11), "The level of the merged message exceeded the limit."],
      [
        4004n,
        combineBody({ ...(await upload(combineFile(2))), secret: "wrong" }),
        "Failed to upload the merge message.Please try again",
      ],
      [
        4005n,
        combineBody(await upload(Buffer.from("plain text"))),
        "Failed to upload the merge message.Please try again",
      ],
    ];
    for (const [id, body, reason] of cases) {
      a.send(sendFrame(g.appKey, { id, from: ann.name, to: ben.name, chatType: 1, text: "" }, body));
      expect((await a.take((f: ServerFrame) => f.sync?.metaId === id)).sync?.status).toEqual({ code: 4, reason });
    }
    const stored = await g.im.t.ctx.database.db
      .selectFrom("im_messages")
      .select("id")
      .where("client_id", "in", ["webim_c3:4002", "webim_c3:4003", "webim_c3:4004", "webim_c3:4005"])
      .execute();
    expect(stored).toEqual([]);
    a.close();
  });
});
