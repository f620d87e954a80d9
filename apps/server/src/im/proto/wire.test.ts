import { describe, expect, it } from "vitest";
import { readFields, Writer } from "./wire";

describe("protobuf wire format", () => {
  it("writes varints as protobuf does, from one byte to ten, and reads them back", () => {
    const values: (number | bigint)[] = [0, 1, 127, 128, 300, 2 ** 31, 2 ** 32 + 5, Number.MAX_SAFE_INTEGER, 2n ** 63n, 2n ** 64n - 1n];
    const w = new Writer();
    values.forEach((v, i) => w.varint(i + 1, v));
    const fields = readFields(w.finish());
    expect(fields.map((f) => f.field)).toEqual(values.map((_, i) => i + 1));
    expect(fields.map((f) => f.varint)).toEqual(values.map((v) => BigInt(v)));
  });

  it("encodes known byte sequences (300 is AC 02, -1 takes ten bytes, true is 1)", () => {
    expect([...new Writer().varint(1, 300).finish()]).toEqual([0x08, 0xac, 0x02]);
    expect([...new Writer().varint(1, -1).finish()]).toEqual([0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
    expect([...new Writer().varint(2, true).varint(3, false).finish()]).toEqual([0x10, 0x01, 0x18, 0x00]);
    expect(readFields(new Uint8Array([0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]))[0]?.varint).toBe(2n ** 64n - 1n);
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
});
