/**
 * Protocol-buffers wire format, just what the IM protocol needs: varints (64-bit through BigInt),
 * doubles and floats, length-delimited fields. Fields are written in the order called (callers write
 * them in field-number order, as protobufjs does), and an optional field is written whenever it is set,
 * even to its default: the protocol is proto2 and the client tests presence.
 */
export class Writer {
  // One growing buffer instead of an array per field: messages are built by the thousand per second.
  private buf = new Uint8Array(64);
  private pos = 0;

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.pos + n));
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }

  private push(bytes: Uint8Array): this {
    this.ensure(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
    return this;
  }

  /** Non-negative safe integers in plain arithmetic; anything else (negative, above 2^53) through BigInt. */
  private rawVarint(value: number | bigint): this {
    if (typeof value === "number" && value >= 0 && Number.isSafeInteger(value)) {
      this.ensure(8);
      let v = value;
      while (v >= 0x80) {
        this.buf[this.pos++] = (v % 0x80) | 0x80;
        v = Math.floor(v / 0x80);
      }
      this.buf[this.pos++] = v;
      return this;
    }
    let v = BigInt.asUintN(64, BigInt(value));
    this.ensure(10);
    while (v >= 0x80n) {
      this.buf[this.pos++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.buf[this.pos++] = Number(v);
    return this;
  }

  private tag(field: number, wireType: number): this {
    return this.rawVarint((field << 3) | wireType);
  }

  /** int32/int64/uint32/uint64/bool/enum. Negative values take ten bytes, as protobuf does. */
  varint(field: number, value: number | bigint | boolean): this {
    const v = typeof value === "boolean" ? (value ? 1 : 0) : typeof value === "bigint" && value >= 0n && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
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
    return this.tag(field, 2).rawVarint(value.length).push(value);
  }

  string(field: number, value: string): this {
    return this.bytes(field, Buffer.from(value, "utf8"));
  }

  /**
   * A nested message, built in place: one byte is kept for its length (most are shorter than 128 bytes)
   * and the body moves up when the length needs more, so no writer is allocated per nested message.
   */
  message(field: number, build: (w: Writer) => void): this {
    this.tag(field, 2);
    this.ensure(1);
    const lengthAt = this.pos++;
    build(this);
    const length = this.pos - lengthAt - 1;
    if (length < 0x80) {
      this.buf[lengthAt] = length;
      return this;
    }
    let extra = 0;
    for (let v = length; v >= 0x80; v = Math.floor(v / 0x80)) extra++;
    this.ensure(extra);
    this.buf.copyWithin(lengthAt + 1 + extra, lengthAt + 1, this.pos);
    const end = this.pos + extra;
    this.pos = lengthAt;
    this.rawVarint(length);
    this.pos = end;
    return this;
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.pos);
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
    // Up to seven bytes (49 bits) in plain arithmetic, the rare longer ones through BigInt.
    let n = 0;
    let mul = 1;
    for (let i = 0; i < 7; i++) {
      const b = buf[pos++];
      if (b === undefined) throw new Error("protobuf: truncated varint");
      n += (b & 0x7f) * mul;
      if ((b & 0x80) === 0) return BigInt(n);
      mul *= 0x80;
    }
    let result = BigInt(n);
    let shift = 49n;
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
