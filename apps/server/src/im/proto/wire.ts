/**
 * Protocol-buffers wire format, just what the IM protocol needs: varints (64-bit through BigInt),
 * doubles and floats, length-delimited fields. Fields are written in the order called (callers write
 * them in field-number order, as protobufjs does), and an optional field is written whenever it is set,
 * even to its default: the protocol is proto2 and the client tests presence.
 */
export class Writer {
  private readonly chunks: Uint8Array[] = [];
  private length = 0;

  private push(bytes: Uint8Array): this {
    this.chunks.push(bytes);
    this.length += bytes.length;
    return this;
  }

  private rawVarint(value: bigint): this {
    let v = BigInt.asUintN(64, value);
    const out: number[] = [];
    while (v >= 0x80n) {
      out.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    out.push(Number(v));
    return this.push(Uint8Array.from(out));
  }

  private tag(field: number, wireType: number): this {
    return this.rawVarint(BigInt((field << 3) | wireType));
  }

  /** int32/int64/uint32/uint64/bool/enum. Negative values take ten bytes, as protobuf does. */
  varint(field: number, value: number | bigint | boolean): this {
    const v = typeof value === "boolean" ? (value ? 1n : 0n) : BigInt(value);
    return this.tag(field, 0).rawVarint(v);
  }

  double(field: number, value: number): this {
    const b = Buffer.alloc(8);
    b.writeDoubleLE(value, 0);
    return this.tag(field, 1).push(b);
  }

  float(field: number, value: number): this {
    const b = Buffer.alloc(4);
    b.writeFloatLE(value, 0);
    return this.tag(field, 5).push(b);
  }

  bytes(field: number, value: Uint8Array): this {
    return this.tag(field, 2).rawVarint(BigInt(value.length)).push(value);
  }

  string(field: number, value: string): this {
    return this.bytes(field, Buffer.from(value, "utf8"));
  }

  message(field: number, build: (w: Writer) => void): this {
    const inner = new Writer();
    build(inner);
    return this.bytes(field, inner.finish());
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.length);
    let pos = 0;
    for (const c of this.chunks) {
      out.set(c, pos);
      pos += c.length;
    }
    return out;
  }
}

export interface Field {
  field: number;
  wireType: number;
  /** Varint fields (as an unsigned 64-bit BigInt). */
  varint?: bigint;
  /** Length-delimited and fixed fields: the raw bytes. */
  bytes?: Uint8Array;
}

/** Reads all top-level fields of a message, in order (repeated fields appear several times). */
export function readFields(buf: Uint8Array): Field[] {
  const out: Field[] = [];
  let pos = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const b = buf[pos++];
      if (b === undefined) throw new Error("protobuf: truncated varint");
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
      shift += 7n;
      if (shift > 63n) throw new Error("protobuf: varint too long");
    }
  };
  while (pos < buf.length) {
    const key = Number(varint());
    const field = key >>> 3;
    const wireType = key & 7;
    switch (wireType) {
      case 0:
        out.push({ field, wireType, varint: varint() });
        break;
      case 1:
        out.push({ field, wireType, bytes: buf.subarray(pos, pos + 8) });
        pos += 8;
        break;
      case 2: {
        const len = Number(varint());
        if (pos + len > buf.length) throw new Error("protobuf: truncated field");
        out.push({ field, wireType, bytes: buf.subarray(pos, pos + len) });
        pos += len;
        break;
      }
      case 5:
        out.push({ field, wireType, bytes: buf.subarray(pos, pos + 4) });
        pos += 4;
        break;
      default:
        throw new Error(`protobuf: unsupported wire type ${wireType}`);
    }
  }
  return out;
}
