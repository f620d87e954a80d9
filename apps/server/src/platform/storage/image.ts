import { deflateSync, inflateSync } from "node:zlib";

/**
 * Image dimensions and thumbnails without native dependencies: PNG (every colour type and bit depth,
 * interlaced or not) and baseline JPEG are decoded, scaled down with an area filter and written as PNG.
 * Other formats (GIF, WebP, progressive JPEG) get their dimensions read but no thumbnail: callers serve
 * the original instead.
 */

export interface ImageSize {
  width: number;
  height: number;
  format: "png" | "jpeg" | "gif" | "webp" | "bmp";
}

export function imageSize(b: Buffer): ImageSize | null {
  if (b.length >= 24 && b.readUInt32BE(0) === 0x89504e47 && b.toString("ascii", 12, 16) === "IHDR") {
    return { width: b.readUInt32BE(16), height: b.readUInt32BE(20), format: "png" };
  }
  if (b.length >= 10 && b.toString("ascii", 0, 3) === "GIF") return { width: b.readUInt16LE(6), height: b.readUInt16LE(8), format: "gif" };
  if (b.length >= 26 && b[0] === 0x42 && b[1] === 0x4d) return { width: b.readInt32LE(18), height: Math.abs(b.readInt32LE(22)), format: "bmp" };
  if (b.length >= 30 && b.toString("ascii", 0, 4) === "RIFF" && b.toString("ascii", 8, 12) === "WEBP") {
    const chunk = b.toString("ascii", 12, 16);
    if (chunk === "VP8 ") return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff, format: "webp" };
    if (chunk === "VP8L") {
      const bits = b.readUInt32LE(21);
      return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1, format: "webp" };
    }
    if (chunk === "VP8X") return { width: 1 + b.readUIntLE(24, 3), height: 1 + b.readUIntLE(27, 3), format: "webp" };
    return null;
  }
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) {
    let i = 2;
    while (i + 9 < b.length) {
      if (b[i] !== 0xff) return null;
      const marker = b[i + 1] ?? 0;
      if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01 || marker === 0xff) {
        i += marker === 0xff ? 1 : 2;
        continue;
      }
      const len = b.readUInt16BE(i + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { width: b.readUInt16BE(i + 7), height: b.readUInt16BE(i + 5), format: "jpeg" };
      }
      i += 2 + len;
    }
  }
  return null;
}

/** RGBA pixels. */
export interface Bitmap {
  width: number;
  height: number;
  data: Uint8Array;
}

const MAX_PIXELS = 20_000_000;

/* ---------- PNG ---------- */

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of buf) c = (CRC_TABLE[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "ascii");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

export function encodePng(img: Bitmap): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(img.width, 0);
  ihdr.writeUInt32BE(img.height, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  const stride = img.width * 4;
  const raw = Buffer.alloc((stride + 1) * img.height);
  for (let y = 0; y < img.height; y++) {
    raw[y * (stride + 1)] = 0;
    raw.set(img.data.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

export function decodePng(b: Buffer): Bitmap | null {
  if (b.length < 33 || b.readUInt32BE(0) !== 0x89504e47) return null;
  let pos = 8;
  let width = 0;
  let height = 0;
  let depth = 0;
  let colorType = 0;
  let interlace = 0;
  let palette: Buffer | null = null;
  let trns: Buffer | null = null;
  const idat: Buffer[] = [];
  while (pos + 8 <= b.length) {
    const len = b.readUInt32BE(pos);
    const type = b.toString("ascii", pos + 4, pos + 8);
    const data = b.subarray(pos + 8, pos + 8 + len);
    if (type === "IHDR") {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      depth = data[8] ?? 0;
      colorType = data[9] ?? 0;
      interlace = data[12] ?? 0;
    } else if (type === "PLTE") palette = data;
    else if (type === "tRNS") trns = data;
    else if (type === "IDAT") idat.push(data);
    else if (type === "IEND") break;
    pos += 12 + len;
  }
  const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[colorType];
  if (!channels || width <= 0 || height <= 0 || width * height > MAX_PIXELS || ![1, 2, 4, 8, 16].includes(depth)) return null;
  let raw: Buffer;
  try {
    raw = inflateSync(Buffer.concat(idat));
  } catch {
    return null;
  }
  const bpp = Math.max(1, (channels * depth) >> 3);
  const out = new Uint8Array(width * height * 4);
  let offset = 0;

  const readPass = (w: number, h: number, place: (x: number, y: number) => number): boolean => {
    if (w === 0 || h === 0) return true;
    const stride = Math.ceil((w * channels * depth) / 8);
    let prev = new Uint8Array(stride);
    for (let y = 0; y < h; y++) {
      if (offset + 1 + stride > raw.length) return false;
      const filter = raw[offset] ?? 0;
      const line = new Uint8Array(raw.subarray(offset + 1, offset + 1 + stride));
      offset += 1 + stride;
      for (let i = 0; i < stride; i++) {
        const a = i >= bpp ? (line[i - bpp] ?? 0) : 0;
        const up = prev[i] ?? 0;
        const c = i >= bpp ? (prev[i - bpp] ?? 0) : 0;
        const x = line[i] ?? 0;
        line[i] = (filter === 1 ? x + a : filter === 2 ? x + up : filter === 3 ? x + ((a + up) >> 1) : filter === 4 ? x + paeth(a, up, c) : x) & 0xff;
      }
      for (let x = 0; x < w; x++) {
        const sample = (ch: number): number => {
          const idx = x * channels + ch;
          if (depth === 8) return line[idx] ?? 0;
          if (depth === 16) return line[idx * 2] ?? 0;
          const bit = idx * depth;
          const v = ((line[bit >> 3] ?? 0) >> (8 - depth - (bit & 7))) & ((1 << depth) - 1);
          return colorType === 3 ? v : Math.round((v * 255) / ((1 << depth) - 1));
        };
        const o = place(x, y) * 4;
        if (colorType === 3) {
          const i = sample(0);
          out[o] = palette?.[i * 3] ?? 0;
          out[o + 1] = palette?.[i * 3 + 1] ?? 0;
          out[o + 2] = palette?.[i * 3 + 2] ?? 0;
          out[o + 3] = trns && i < trns.length ? (trns[i] ?? 255) : 255;
        } else if (colorType === 0 || colorType === 4) {
          const g = sample(0);
          out[o] = out[o + 1] = out[o + 2] = g;
          out[o + 3] = colorType === 4 ? sample(1) : 255;
        } else {
          out[o] = sample(0);
          out[o + 1] = sample(1);
          out[o + 2] = sample(2);
          out[o + 3] = colorType === 6 ? sample(3) : 255;
        }
      }
      prev = line;
    }
    return true;
  };

  if (interlace === 0) {
    if (!readPass(width, height, (x, y) => y * width + x)) return null;
  } else {
    const passes: [number, number, number, number][] = [
      [0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [0, 1, 1, 2],
    ];
    for (const [x0, y0, dx, dy] of passes) {
      const w = Math.ceil((width - x0) / dx);
      const h = Math.ceil((height - y0) / dy);
      if (!readPass(Math.max(0, w), Math.max(0, h), (x, y) => (y0 + y * dy) * width + x0 + x * dx)) return null;
    }
  }
  return { width, height, data: out };
}

/* ---------- baseline JPEG ---------- */

const ZIGZAG = [
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57,
  50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
];

interface Huffman {
  /** code length → (code → symbol) */
  lookup: Map<number, Map<number, number>>;
}

function buildHuffman(counts: Uint8Array, symbols: Uint8Array): Huffman {
  const lookup = new Map<number, Map<number, number>>();
  let code = 0;
  let k = 0;
  for (let len = 1; len <= 16; len++) {
    const m = new Map<number, number>();
    for (let i = 0; i < (counts[len - 1] ?? 0); i++) m.set(code++, symbols[k++] ?? 0);
    lookup.set(len, m);
    code <<= 1;
  }
  return { lookup };
}

interface Component {
  id: number;
  h: number;
  v: number;
  tq: number;
  td: number;
  ta: number;
  pred: number;
  /** Decoded samples of the component, blocksPerLine*8 wide. */
  pixels: Uint8Array;
  blocksPerLine: number;
  blocksPerColumn: number;
}

class BitReader {
  private bits = 0;
  private count = 0;
  constructor(
    private readonly b: Buffer,
    public pos: number,
  ) {}

  bit(): number {
    if (this.count === 0) {
      let byte = this.b[this.pos++];
      if (byte === undefined) throw new Error("jpeg: unexpected end of data");
      if (byte === 0xff) {
        const next = this.b[this.pos];
        if (next === 0) this.pos++;
        else if (next !== undefined && next >= 0xd0 && next <= 0xd7) byte = 0;
        else throw new Error("jpeg: marker inside entropy-coded data");
      }
      this.bits = byte;
      this.count = 8;
    }
    this.count--;
    return (this.bits >> this.count) & 1;
  }

  receive(n: number): number {
    let v = 0;
    for (let i = 0; i < n; i++) v = (v << 1) | this.bit();
    return v;
  }

  decode(h: Huffman): number {
    let code = 0;
    for (let len = 1; len <= 16; len++) {
      code = (code << 1) | this.bit();
      const sym = h.lookup.get(len)?.get(code);
      if (sym !== undefined) return sym;
    }
    throw new Error("jpeg: bad Huffman code");
  }

  /** Skips to the next restart marker. */
  restart(): void {
    this.count = 0;
    while (this.pos + 1 < this.b.length && !(this.b[this.pos] === 0xff && (this.b[this.pos + 1] ?? 0) >= 0xd0 && (this.b[this.pos + 1] ?? 0) <= 0xd7)) this.pos++;
    this.pos += 2;
  }
}

function extend(v: number, t: number): number {
  return v < 1 << (t - 1) ? v - (1 << t) + 1 : v;
}

const clamp = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : Math.round(v));

/** Inverse DCT of one block (separable, floating point) into 8×8 samples. */
function idct(coef: Float64Array, out: Float64Array): void {
  const c = (u: number) => (u === 0 ? Math.SQRT1_2 : 1);
  const tmp = new Float64Array(64);
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < 8; x++) {
      let s = 0;
      for (let u = 0; u < 8; u++) s += c(u) * (coef[y * 8 + u] ?? 0) * COS[x * 8 + u]!;
      tmp[y * 8 + x] = s / 2;
    }
  }
  for (let x = 0; x < 8; x++) {
    for (let y = 0; y < 8; y++) {
      let s = 0;
      for (let v = 0; v < 8; v++) s += c(v) * (tmp[v * 8 + x] ?? 0) * COS[y * 8 + v]!;
      out[y * 8 + x] = s / 2 + 128;
    }
  }
}
const COS = (() => {
  const t = new Float64Array(64);
  for (let x = 0; x < 8; x++) for (let u = 0; u < 8; u++) t[x * 8 + u] = Math.cos(((2 * x + 1) * u * Math.PI) / 16);
  return t;
})();

export function decodeJpeg(b: Buffer): Bitmap | null {
  try {
    return decodeJpegOrThrow(b);
  } catch {
    return null;
  }
}

function decodeJpegOrThrow(b: Buffer): Bitmap | null {
  if (b[0] !== 0xff || b[1] !== 0xd8) return null;
  const qt: Uint16Array[] = [];
  const dcTables: Huffman[] = [];
  const acTables: Huffman[] = [];
  let components: Component[] = [];
  let width = 0;
  let height = 0;
  let restartInterval = 0;
  let adobeTransform = -1;
  let pos = 2;
  while (pos < b.length) {
    if (b[pos] !== 0xff) return null;
    const marker = b[pos + 1] ?? 0;
    pos += 2;
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue;
    if (marker === 0xd9) break;
    const len = b.readUInt16BE(pos);
    const seg = b.subarray(pos + 2, pos + len);
    if (marker === 0xdb) {
      let i = 0;
      while (i < seg.length) {
        const pq = (seg[i] ?? 0) >> 4;
        const tq = (seg[i] ?? 0) & 15;
        const table = new Uint16Array(64);
        for (let k = 0; k < 64; k++) table[ZIGZAG[k] ?? 0] = pq ? seg.readUInt16BE(i + 1 + k * 2) : (seg[i + 1 + k] ?? 0);
        qt[tq] = table;
        i += 1 + 64 * (pq ? 2 : 1);
      }
    } else if (marker === 0xc4) {
      let i = 0;
      while (i < seg.length) {
        const tc = (seg[i] ?? 0) >> 4;
        const th = (seg[i] ?? 0) & 15;
        const counts = new Uint8Array(seg.subarray(i + 1, i + 17));
        const total = counts.reduce((a, n) => a + n, 0);
        const symbols = new Uint8Array(seg.subarray(i + 17, i + 17 + total));
        (tc === 0 ? dcTables : acTables)[th] = buildHuffman(counts, symbols);
        i += 17 + total;
      }
    } else if (marker === 0xc0 || marker === 0xc1) {
      height = seg.readUInt16BE(1);
      width = seg.readUInt16BE(3);
      if (width * height > MAX_PIXELS || width === 0 || height === 0) return null;
      const n = seg[5] ?? 0;
      components = [];
      for (let i = 0; i < n; i++) {
        const o = 6 + i * 3;
        components.push({ id: seg[o] ?? 0, h: (seg[o + 1] ?? 0) >> 4, v: (seg[o + 1] ?? 0) & 15, tq: seg[o + 2] ?? 0, td: 0, ta: 0, pred: 0, pixels: new Uint8Array(0), blocksPerLine: 0, blocksPerColumn: 0 });
      }
    } else if (marker >= 0xc2 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return null; // progressive, lossless, arithmetic: not supported
    } else if (marker === 0xdd) {
      restartInterval = seg.readUInt16BE(0);
    } else if (marker === 0xee && seg.toString("ascii", 0, 5) === "Adobe") {
      adobeTransform = seg[11] ?? -1;
    } else if (marker === 0xda) {
      const n = seg[0] ?? 0;
      const scan: Component[] = [];
      for (let i = 0; i < n; i++) {
        const c = components.find((x) => x.id === seg[1 + i * 2]);
        if (!c) return null;
        c.td = (seg[2 + i * 2] ?? 0) >> 4;
        c.ta = (seg[2 + i * 2] ?? 0) & 15;
        scan.push(c);
      }
      pos = decodeScan(b, pos + len, components, scan, width, height, qt, dcTables, acTables, restartInterval);
      continue;
    }
    pos += len;
  }
  if (components.length === 0 || components[0]?.pixels.length === 0) return null;
  const hMax = Math.max(...components.map((c) => c.h));
  const vMax = Math.max(...components.map((c) => c.v));
  const out = new Uint8Array(width * height * 4);
  const sampleOf = (c: Component, x: number, y: number) => {
    const sx = Math.floor((x * c.h) / hMax);
    const sy = Math.floor((y * c.v) / vMax);
    return c.pixels[sy * c.blocksPerLine * 8 + sx] ?? 0;
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      if (components.length >= 3) {
        const Y = sampleOf(components[0]!, x, y);
        const Cb = sampleOf(components[1]!, x, y) - 128;
        const Cr = sampleOf(components[2]!, x, y) - 128;
        // Three components are YCbCr unless an Adobe marker says RGB; four are (inverted) CMYK or YCCK.
        const transform = components.length === 4 ? adobeTransform === 2 : adobeTransform !== 0;
        out[o] = transform ? clamp(Y + 1.402 * Cr) : Y;
        out[o + 1] = transform ? clamp(Y - 0.344136 * Cb - 0.714136 * Cr) : Cb + 128;
        out[o + 2] = transform ? clamp(Y + 1.772 * Cb) : Cr + 128;
        if (components.length === 4) {
          const k = sampleOf(components[3]!, x, y);
          for (let i = 0; i < 3; i++) out[o + i] = clamp(((out[o + i] ?? 0) * k) / 255);
        }
      } else {
        out[o] = out[o + 1] = out[o + 2] = sampleOf(components[0]!, x, y);
      }
      out[o + 3] = 255;
    }
  }
  return { width, height, data: out };
}

function decodeScan(
  b: Buffer,
  start: number,
  all: Component[],
  scan: Component[],
  width: number,
  height: number,
  qt: Uint16Array[],
  dc: Huffman[],
  ac: Huffman[],
  restartInterval: number,
): number {
  const hMax = Math.max(...all.map((c) => c.h));
  const vMax = Math.max(...all.map((c) => c.v));
  const mcuX = Math.ceil(width / (8 * hMax));
  const mcuY = Math.ceil(height / (8 * vMax));
  for (const c of all) {
    c.blocksPerLine = mcuX * c.h;
    c.blocksPerColumn = mcuY * c.v;
    c.pixels = new Uint8Array(c.blocksPerLine * 8 * c.blocksPerColumn * 8);
    c.pred = 0;
  }
  const reader = new BitReader(b, start);
  const coef = new Float64Array(64);
  const block = new Float64Array(64);
  const decodeBlock = (c: Component, row: number, col: number) => {
    coef.fill(0);
    const q = qt[c.tq];
    const dct = dc[c.td];
    const act = ac[c.ta];
    if (!q || !dct || !act) throw new Error("jpeg: missing table");
    const t = reader.decode(dct);
    c.pred += t === 0 ? 0 : extend(reader.receive(t), t);
    coef[0] = c.pred * (q[0] ?? 1);
    for (let k = 1; k < 64; ) {
      const rs = reader.decode(act);
      const s = rs & 15;
      const r = rs >> 4;
      if (s === 0) {
        if (r < 15) break;
        k += 16;
        continue;
      }
      k += r;
      const z = ZIGZAG[k] ?? 0;
      coef[z] = extend(reader.receive(s), s) * (q[z] ?? 1);
      k++;
    }
    idct(coef, block);
    const line = c.blocksPerLine * 8;
    for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) c.pixels[(row * 8 + y) * line + col * 8 + x] = clamp(block[y * 8 + x] ?? 0);
  };
  const total = mcuX * mcuY;
  for (let m = 0; m < total; m++) {
    if (restartInterval && m > 0 && m % restartInterval === 0) {
      reader.restart();
      for (const c of scan) c.pred = 0;
    }
    const my = Math.floor(m / mcuX);
    const mx = m % mcuX;
    for (const c of scan) {
      for (let v = 0; v < c.v; v++) for (let h = 0; h < c.h; h++) decodeBlock(c, my * c.v + v, mx * c.h + h);
    }
  }
  // Find the next marker after the entropy-coded data.
  let p = reader.pos;
  while (p + 1 < b.length && !(b[p] === 0xff && b[p + 1] !== 0 && !((b[p + 1] ?? 0) >= 0xd0 && (b[p + 1] ?? 0) <= 0xd7))) p++;
  return p;
}

/* ---------- scaling ---------- */

/** Scales down to fit in maxW × maxH keeping the aspect ratio, averaging the source pixels each covers. */
export function scaleDown(img: Bitmap, maxW: number, maxH: number): Bitmap {
  const ratio = Math.min(1, maxW / img.width, maxH / img.height);
  const w = Math.max(1, Math.round(img.width * ratio));
  const h = Math.max(1, Math.round(img.height * ratio));
  if (w === img.width && h === img.height) return img;
  const out = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    const y0 = Math.floor((y * img.height) / h);
    const y1 = Math.max(y0 + 1, Math.floor(((y + 1) * img.height) / h));
    for (let x = 0; x < w; x++) {
      const x0 = Math.floor((x * img.width) / w);
      const x1 = Math.max(x0 + 1, Math.floor(((x + 1) * img.width) / w));
      const sum = [0, 0, 0, 0];
      for (let sy = y0; sy < y1; sy++) {
        for (let sx = x0; sx < x1; sx++) {
          const i = (sy * img.width + sx) * 4;
          for (let c = 0; c < 4; c++) sum[c] = (sum[c] ?? 0) + (img.data[i + c] ?? 0);
        }
      }
      const n = (y1 - y0) * (x1 - x0);
      const o = (y * w + x) * 4;
      for (let c = 0; c < 4; c++) out[o + c] = Math.round((sum[c] ?? 0) / n);
    }
  }
  return { width: w, height: h, data: out };
}

/** A PNG thumbnail fitting in maxW × maxH, or null when the format cannot be decoded here. */
export function thumbnail(b: Buffer, maxW: number, maxH: number): { png: Buffer; width: number; height: number } | null {
  const size = imageSize(b);
  if (!size) return null;
  const img = size.format === "png" ? decodePng(b) : size.format === "jpeg" ? decodeJpeg(b) : null;
  if (!img) return null;
  const small = scaleDown(img, maxW, maxH);
  return { png: encodePng(small), width: small.width, height: small.height };
}
