import { describe, expect, it } from "vitest";
import { decodeMessageBody } from "./decode";
import { readFields, Reader, Writer } from "./wire";

describe("protobuf wire format", () => {
  it("writes varints as protobuf does, from one byte to ten, and reads them back", () => {
    const values: (number | bigint)[] = [
      0,
      1,
      127,
      128,
      300,
      2 ** 31,
      2 ** 32 + 5,
      Number.MAX_SAFE_INTEGER,
      2n ** 63n,
      2n ** 64n - 1n,
    ];
    const w = new Writer();
    values.forEach((v, i) => w.varint(i + 1, v));
    const fields = readFields(w.finish());
    expect(fields.map((f) => f.field)).toEqual(values.map((_, i) => i + 1));
    expect(fields.map((f) => f.varint)).toEqual(values.map((v) => BigInt(v)));
  });

  it("encodes known byte sequences (300 is AC 02, -1 takes ten bytes, true is 1)", () => {
    expect([...new Writer().varint(1, 300).finish()]).toEqual([0x08, 0xac, 0x02]);
    expect([...new Writer().varint(1, -1).finish()]).toEqual([
      0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
    ]);
    expect([...new Writer().varint(2, true).varint(3, false).finish()]).toEqual([0x10, 0x01, 0x18, 0x00]);
    expect(
      readFields(new Uint8Array([0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]))[0]?.varint,
    ).toBe(2n ** 64n - 1n);
  });

  it("nests messages and strings past the first buffer size", () => {
    const long = "x".repeat(500);
    const bytes = new Writer()
      .string(1, "héllo")
      .message(2, (m) => m.string(1, long).varint(2, 7))
      .bytes(3, new Uint8Array([1, 2, 3]))
      .finish();
    const [a, b, c] = readFields(bytes);
    expect(Buffer.from(a?.bytes ?? []).toString("utf8")).toBe("héllo");
    const inner = readFields(b?.bytes ?? new Uint8Array());
    expect(Buffer.from(inner[0]?.bytes ?? []).toString("utf8")).toBe(long);
    expect(inner[1]?.varint).toBe(7n);
    expect([...(c?.bytes ?? [])]).toEqual([1, 2, 3]);
  });

  it("nests messages in messages whose lengths take one, two and three bytes", () => {
    for (const size of [0, 127, 128, 20_000]) {
      const body = "y".repeat(size);
      const bytes = new Writer()
        .varint(1, 1)
        .message(2, (m) => m.message(1, (n) => n.string(1, body)).varint(2, 9))
        .varint(3, 3)
        .finish();
      const [one, outer, three] = readFields(bytes);
      expect(one?.varint).toBe(1n);
      expect(three?.varint).toBe(3n);
      const [inner, nine] = readFields(outer?.bytes ?? new Uint8Array());
      expect(nine?.varint).toBe(9n);
      expect(Buffer.from(readFields(inner?.bytes ?? new Uint8Array())[0]?.bytes ?? []).toString("utf8")).toBe(body);
    }
  });

  it("refuses truncated and overlong varints", () => {
    expect(() => readFields(new Uint8Array([0x08, 0x80]))).toThrow(/truncated/);
    expect(() => readFields(new Uint8Array([0x08, ...Array<number>(10).fill(0xff), 0x01]))).toThrow(/too long/);
  });

  it("writes strings of every length and script as UTF-8, ASCII and not, below and above one length byte", () => {
    const samples = [
      "",
      "a",
      "héllo",
      "日本語のテキスト",
      "emoji 😀 in the middle",
      "x".repeat(42),
      "é".repeat(42),
      "😀".repeat(21),
      "z".repeat(43),
      "ü".repeat(64),
      "€".repeat(300),
    ];
    const w = new Writer();
    samples.forEach((t, i) => w.string(i + 1, t));
    const r = new Reader(w.finish());
    const back: string[] = [];
    while (r.next()) back.push(r.string());
    expect(back).toEqual(samples);
  });

  it("writers built at the same time keep their own bytes (a payload finished while its envelope is open)", () => {
    const outer = new Writer().varint(1, 5);
    const inner = new Writer().string(1, "inner").finish();
    const bytes = outer.bytes(2, inner).string(3, "after").finish();
    const [one, two, three] = readFields(bytes);
    expect(one?.varint).toBe(5n);
    expect(Buffer.from(readFields(two?.bytes ?? new Uint8Array())[0]?.bytes ?? []).toString()).toBe("inner");
    expect(Buffer.from(three?.bytes ?? []).toString()).toBe("after");
    expect(() => outer.finish()).toThrow(/twice/);
  });

  it("reads fields with a cursor: numbers, 64-bit values, doubles, floats and nested messages", () => {
    const bytes = new Writer()
      .varint(1, 2n ** 63n + 5n)
      .varint(2, -3)
      .double(3, 1.5)
      .float(4, 0.25)
      .message(5, (m) => m.varint(1, 1_700_000_000_000).string(2, "n"))
      .varint(6, true)
      .finish();
    const r = new Reader(bytes);
    const seen: unknown[] = [];
    while (r.next()) {
      if (r.field === 1) seen.push(r.uint64());
      else if (r.field === 2) seen.push(r.int());
      else if (r.field === 3) seen.push(r.double());
      else if (r.field === 4) seen.push(r.float());
      else if (r.field === 5) {
        const m = r.message();
        while (m.next()) seen.push(m.field === 1 ? m.int() : m.string());
      } else seen.push(r.bool());
    }
    expect(seen).toEqual([2n ** 63n + 5n, -3, 1.5, 0.25, 1_700_000_000_000, "n", true]);
  });

  it("reads a field of another wire type as absent, and refuses truncated fields", () => {
    const r = new Reader(new Writer().varint(1, 7).string(2, "s").finish());
    r.next();
    expect([r.string(), r.bytes().length, r.double()]).toEqual(["", 0, 0]);
    r.next();
    expect([r.int(), r.uint64(), r.bool()]).toEqual([0, 0n, false]);
    expect(() => new Reader(new Uint8Array([0x12, 0x05, 0x61])).next()).toThrow(/truncated field/);
    expect(() => new Reader(new Uint8Array([0x09, 0x00, 0x00])).next()).toThrow(/truncated field/);
    expect(() => new Reader(new Uint8Array([0x0b])).next()).toThrow(/unsupported wire type/);
  });

  it("reads a read receipt's ackMessageIds (field 17) packed, unpacked and both, beside ackMessageId", () => {
    const ids = [1n, 300n, 2n ** 40n + 7n, 2n ** 64n - 1n];
    const packed = new Writer().varint(1, 4);
    const run = new Writer();
    for (const id of ids) run.varint(1, id);
    // A packed run is one length-delimited field of bare varints: drop each varint's tag byte.
    const bare = readFields(run.finish()).map((f) => {
      const w = new Writer().varint(1, f.varint as bigint).finish();
      return w.subarray(1);
    });
    packed.bytes(17, Buffer.concat(bare));
    expect(decodeMessageBody(packed.finish()).ackMessageIds).toEqual(ids);

    const unpacked = new Writer().varint(1, 4);
    for (const id of ids) unpacked.varint(17, id);
    expect(decodeMessageBody(unpacked.finish()).ackMessageIds).toEqual(ids);

    const mixed = new Writer()
      .varint(1, 4)
      .varint(6, 9)
      .varint(17, 5)
      .bytes(17, new Uint8Array([6, 7]));
    const body = decodeMessageBody(mixed.finish());
    expect(body.ackMessageId).toBe(9n);
    expect(body.ackMessageIds).toEqual([5n, 6n, 7n]);

    expect(() => decodeMessageBody(new Writer().bytes(17, new Uint8Array([0x80])).finish())).toThrow(/truncated/);
  });
});
