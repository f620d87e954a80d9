/**
 * Protocol-buffers wire format, just what the IM protocol needs: varints (64-bit through BigInt),
 * doubles and floats, length-delimited fields. Fields are written in the order called (callers write
 * them in field-number order, as protobufjs does), and an optional field is written whenever it is set,
 * even to its default: the protocol is proto2 and the client tests presence.
 *
 * Both directions run several times per message on a busy gateway, so neither allocates per field: the
 * Writer builds in a reused scratch buffer and copies the result out once; the Reader walks the bytes
 * with a cursor and decodes only what the caller asks for.
 */

/** Scratch buffers of finished writers, reused by the next ones (a writer holds one until it finishes). */
const scratch: Buffer[] = [];
const SCRATCH_BYTES = 4096;
/** Larger scratch buffers (a big combined message) are not kept; nor more than a few. */
const SCRATCH_KEEP_BYTES = 64 * 1024;
const SCRATCH_KEEP = 8;
const NONE = Buffer.alloc(0);

export class Writer {
  private buf: Buffer = scratch.pop() ?? Buffer.allocUnsafe(SCRATCH_BYTES);
  private pos = 0;

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    if (this.buf === NONE) throw new Error("protobuf: writer used after finish()");
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(next, 0, 0, this.pos);
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
      const buf = this.buf;
      let pos = this.pos;
      let v = value;
      // `& 0x7f` on a number above 2^32 still gives its low seven bits (ToInt32 keeps the low 32).
      while (v > 0x7fffffff) {
        buf[pos++] = (v & 0x7f) | 0x80;
        v = Math.floor(v / 0x80);
      }
      while (v > 0x7f) {
        buf[pos++] = (v & 0x7f) | 0x80;
        v >>>= 7;
      }
      buf[pos++] = v;
      this.pos = pos;
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
    const key = (field << 3) | wireType;
    if (key < 0x80) {
      this.ensure(1);
      this.buf[this.pos++] = key;
      return this;
    }
    return this.rawVarint(key);
  }

  /** int32/int64/uint32/uint64/bool/enum. Negative values take ten bytes, as protobuf does. */
  varint(field: number, value: number | bigint | boolean): this {
    const v =
      typeof value === "boolean"
        ? value
          ? 1
          : 0
        : typeof value === "bigint" && value >= 0n && value <= BigInt(Number.MAX_SAFE_INTEGER)
          ? Number(value)
          : value;
    return this.tag(field, 0).rawVarint(v);
  }

  double(field: number, value: number): this {
    this.tag(field, 1).ensure(8);
    this.buf.writeDoubleLE(value, this.pos);
    this.pos += 8;
    return this;
  }

  float(field: number, value: number): this {
    this.tag(field, 5).ensure(4);
    this.buf.writeFloatLE(value, this.pos);
    this.pos += 4;
    return this;
  }

  bytes(field: number, value: Uint8Array): this {
    return this.tag(field, 2).rawVarint(value.length).push(value);
  }

  string(field: number, value: string): this {
    const n = value.length;
    // At most three bytes per UTF-16 unit: up to 42 units the length fits in one byte, so the string is
    // written straight after it (ASCII byte by byte, anything else by Buffer.write).
    if (n <= 42) {
      this.tag(field, 2).ensure(1 + 3 * n);
      const buf = this.buf;
      const lengthAt = this.pos;
      let pos = lengthAt + 1;
      for (let i = 0; i < n; i++) {
        const c = value.charCodeAt(i);
        if (c >= 0x80) {
          pos = lengthAt + 1 + buf.write(value, lengthAt + 1, "utf8");
          break;
        }
        buf[pos++] = c;
      }
      buf[lengthAt] = pos - lengthAt - 1;
      this.pos = pos;
      return this;
    }
    const length = Buffer.byteLength(value, "utf8");
    this.tag(field, 2).rawVarint(length).ensure(length);
    this.pos += this.buf.write(value, this.pos, length, "utf8");
    return this;
  }

  /**
   * A nested message, built in place: one byte is kept for its length (most are shorter than 128 bytes)
   * and the body moves up when the length needs more, so no writer is allocated per nested message.
   */
  message(field: number, build: (w: Writer) => void): this {
    const at = this.begin(field);
    build(this);
    return this.end(at);
  }

  /** Opens a nested message (what message() does without a callback); end(its result) closes it. */
  begin(field: number): number {
    this.tag(field, 2).ensure(1);
    return this.pos++;
  }

  end(lengthAt: number): this {
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

  /** The bytes written, copied out; the writer's buffer goes back for the next writer. */
  finish(): Uint8Array {
    const buf = this.buf;
    if (buf === NONE) throw new Error("protobuf: finish() called twice");
    const out = Buffer.allocUnsafe(this.pos);
    buf.copy(out, 0, 0, this.pos);
    this.buf = NONE;
    if (buf.length <= SCRATCH_KEEP_BYTES && scratch.length < SCRATCH_KEEP) scratch.push(buf);
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
  const r = new Reader(buf);
  while (r.next()) {
    if (r.wireType === 0) out.push({ field: r.field, wireType: 0, varint: r.uint64() });
    else out.push({ field: r.field, wireType: r.wireType, bytes: r.bytes() });
  }
  return out;
}

/**
 * A cursor over a message's fields: next() steps to the following field (false at the end), whose
 * number and wire type are then `field` and `wireType`, and whose value the caller reads with one of
 * the value methods. Strings decode from the frame's bytes directly. Malformed input throws.
 */
export class Reader {
  field = 0;
  wireType = 0;
  /** The current field's value: where its bytes start and end (the varint's own bytes for varints). */
  private start = 0;
  private end = 0;
  /** The current varint's value when it fits in 49 bits; -1 when it needs BigInt (see long()). */
  private small = 0;
  private pos: number;
  private readonly buf: Buffer;
  private readonly limit: number;

  /** A reader of `bytes`, or of its part from `from` to `to` (nested messages share their frame's bytes). */
  constructor(bytes: Uint8Array, from = 0, to = bytes.length) {
    this.buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.pos = from;
    this.limit = to;
  }

  next(): boolean {
    if (this.pos >= this.limit) return false;
    const key = this.readVarint();
    if (key < 0) throw new Error("protobuf: field number out of range");
    this.field = Math.floor(key / 8);
    this.wireType = key % 8;
    switch (this.wireType) {
      case 0:
        this.start = this.pos;
        this.small = this.readVarint();
        this.end = this.pos;
        return true;
      case 1:
        return this.fixed(8);
      case 2: {
        const len = this.readVarint();
        if (len < 0 || this.pos + len > this.limit) throw new Error("protobuf: truncated field");
        this.start = this.pos;
        this.pos += len;
        this.end = this.pos;
        return true;
      }
      case 5:
        return this.fixed(4);
      default:
        throw new Error(`protobuf: unsupported wire type ${this.wireType}`);
    }
  }

  private fixed(n: number): boolean {
    if (this.pos + n > this.limit) throw new Error("protobuf: truncated field");
    this.start = this.pos;
    this.pos += n;
    this.end = this.pos;
    return true;
  }

  /** A varint in plain arithmetic up to seven bytes (49 bits); -1 for longer ones (checked, read later). */
  private readVarint(): number {
    const buf = this.buf;
    let n = 0;
    let mul = 1;
    for (let i = 0; i < 7; i++) {
      if (this.pos >= this.limit) throw new Error("protobuf: truncated varint");
      const b = buf[this.pos++] as number;
      n += (b & 0x7f) * mul;
      if ((b & 0x80) === 0) return n;
      mul *= 0x80;
    }
    for (let i = 7; ; i++) {
      if (this.pos >= this.limit) throw new Error("protobuf: truncated varint");
      const b = buf[this.pos++] as number;
      if ((b & 0x80) === 0) return -1;
      if (i >= 9) throw new Error("protobuf: varint too long");
    }
  }

  /**
   * The value methods read a field of another wire type as absent (0, empty), as a lenient decoder does;
   * frames.ts checks the wire types of the envelope's fields where a mismatch means a broken frame.
   */

  /** The varint as an unsigned 64-bit BigInt. */
  uint64(): bigint {
    if (this.wireType !== 0) return 0n;
    if (this.small >= 0) return BigInt(this.small);
    let result = 0n;
    let shift = 0n;
    for (let p = this.start; p < this.end; p++) {
      result |= BigInt((this.buf[p] ?? 0) & 0x7f) << shift;
      shift += 7n;
    }
    return BigInt.asUintN(64, result);
  }

  /** The varint as a signed 64-bit number (int32, int64 and enums: negatives take ten bytes). */
  int(): number {
    if (this.wireType !== 0) return 0;
    return this.small >= 0 ? this.small : Number(BigInt.asIntN(64, this.uint64()));
  }

  bool(): boolean {
    return this.wireType === 0 && this.small !== 0;
  }

  /** The raw bytes of a length-delimited or fixed field (a view of the frame, not a copy). */
  bytes(): Uint8Array {
    return this.wireType === 0 ? NONE : this.buf.subarray(this.start, this.end);
  }

  /** A nested message's reader (over the same bytes: nothing is copied or sliced). */
  message(): Reader {
    return this.wireType === 0 ? new Reader(NONE) : new Reader(this.buf, this.start, this.end);
  }

  /** UTF-8 text (invalid sequences become U+FFFD, as Buffer decodes them). */
  string(): string {
    return this.wireType === 0 ? "" : this.buf.toString("utf8", this.start, this.end);
  }

  double(): number {
    return this.wireType !== 0 && this.end - this.start === 8 ? this.buf.readDoubleLE(this.start) : 0;
  }

  float(): number {
    return this.wireType !== 0 && this.end - this.start === 4 ? this.buf.readFloatLE(this.start) : 0;
  }
}
