import { describe, expect, test } from "vitest";
import {
  COMMAND,
  CommSyncDL,
  decode,
  decodeExt,
  encode,
  encodeExt,
  MessageBody,
  MSync,
  Provision,
  asText,
} from "../src/proto";

describe("protobuf codec", () => {
  test("round-trips an MSync carrying a Provision, with 64-bit ids as decimal strings", () => {
    const provision = encode(Provision, {
      osType: 16,
      version: "1.0.0",
      compressType: [0],
      resource: "webim_x",
      authToken: '{"token":"$t$abc"}',
    });
    const bytes = encode(MSync, {
      version: 0,
      guid: { appKey: "o#a", name: "alice", domain: "easemob.com", clientResource: "webim_x" },
      command: COMMAND.PROVISION,
      payload: provision,
      traceId: "7486543210123456789",
    });
    expect(bytes).toBeInstanceOf(Uint8Array);
    const back = decode(MSync, bytes);
    expect(back).toMatchObject({
      version: 0,
      command: 3,
      traceId: "7486543210123456789",
      guid: { name: "alice", clientResource: "webim_x" },
    });
    expect(decode(Provision, back.payload as Uint8Array)).toMatchObject({
      osType: 16,
      version: "1.0.0",
      compressType: [0],
      resource: "webim_x",
    });
  });

  test("writes an optional field set to its default (proto2 presence): a combine content keeps subType 0", () => {
    const body = encode(MessageBody, { type: 1, contents: [{ type: 0, subType: 0, text: "x" }] });
    const content = (decode(MessageBody, body).contents as Record<string, unknown>[])[0];
    expect(content).toHaveProperty("subType", 0);
    const plain = (
      decode(MessageBody, encode(MessageBody, { type: 1, contents: [{ type: 0, text: "x" }] })).contents as Record<
        string,
        unknown
      >[]
    )[0];
    expect(plain).not.toHaveProperty("subType");
  });

  test("reads repeated scalars packed and unpacked", () => {
    // Provision.compressType (field 5) packed: tag 0x2a, length 2, values 0 and 2.
    expect(decode(Provision, Uint8Array.from([0x2a, 0x02, 0x00, 0x02])).compressType).toEqual([0, 2]);
    expect(decode(Provision, Uint8Array.from([0x28, 0x00, 0x28, 0x02])).compressType).toEqual([0, 2]);
  });

  test("uint64 above 2^53 survives; unknown fields are skipped", () => {
    const dl = encode(CommSyncDL, { metaId: "18446744073709551615", serverId: "1234567890123456789", isLast: true });
    const withUnknown = new Uint8Array([...dl, 0xf8, 0x07, 0x01]); // field 127 varint
    expect(decode(CommSyncDL, withUnknown)).toMatchObject({
      metaId: "18446744073709551615",
      serverId: "1234567890123456789",
      isLast: true,
    });
  });

  test("typed key/value extensions: boolean, integer, double, string, object as JSON text", () => {
    const ext = { flag: true, n: 42, x: 1.5, s: "hi", o: { a: [1, 2] } };
    const encoded = encodeExt(ext);
    expect(encoded.map((kv) => kv.type)).toEqual([1, 2, 6, 7, 8]);
    const back = decode(MessageBody, encode(MessageBody, { ext: encoded }));
    expect(decodeExt(back.ext)).toEqual(ext);
  });

  test("truncated input is an error, not garbage", () => {
    const bytes = encode(MSync, { command: 1, payload: new Uint8Array(10) });
    expect(() => decode(MSync, bytes.subarray(0, bytes.length - 3))).toThrow(RangeError);
  });

  test("asText writes out scalars and falls back for anything else", () => {
    expect([asText("a"), asText(3), asText(true), asText(undefined), asText({}, "x")]).toEqual([
      "a",
      "3",
      "true",
      "",
      "x",
    ]);
  });
});
