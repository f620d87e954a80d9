import { inflateSync } from "node:zlib";

/**
 * Recognising the text of a business licence or an ID card image. A real adapter calls an OCR service;
 * the local adapter (the default, offline) reads only a text layer the image itself carries (PNG
 * tEXt/zTXt/iTXt chunks, JPEG comments) and otherwise returns no fields: it never guesses, and the
 * merchant types and confirms the fields by hand.
 */
export type OcrDocument = "bizLicense" | "idCard";

export interface OcrResult {
  recognised: boolean;
  fields: Record<string, string>;
}

export interface OcrAdapter {
  readonly kind: string;
  read(document: OcrDocument, image: Buffer): Promise<OcrResult>;
}

/** Labels a text layer may use for each field, in the languages licences and IDs are printed in. */
const LABELS: Record<OcrDocument, Record<string, readonly string[]>> = {
  bizLicense: {
    companyName: ["companyname", "company name", "名称", "名稱", "企业名称", "企業名稱"],
    licenseNumber: [
      "licensenumber",
      "license number",
      "licence number",
      "统一社会信用代码",
      "統一社會信用代碼",
      "注册号",
      "註冊號",
    ],
    legalName: ["legalname", "legal representative", "法定代表人"],
    validUntil: ["validuntil", "valid until", "营业期限", "營業期限", "有效期"],
  },
  idCard: {
    name: ["name", "姓名"],
    idNumber: ["idnumber", "id number", "公民身份号码", "公民身份號碼", "身份证号", "身份證號"],
    validUntil: ["validuntil", "valid until", "有效期限", "有效期"],
  },
};

/** The text chunks of a PNG and the comment segments of a JPEG. */
export function textLayer(b: Buffer): string[] {
  const out: string[] = [];
  if (b.length > 8 && b.readUInt32BE(0) === 0x89504e47) {
    let pos = 8;
    while (pos + 12 <= b.length) {
      const len = b.readUInt32BE(pos);
      const type = b.toString("ascii", pos + 4, pos + 8);
      const data = b.subarray(pos + 8, Math.min(b.length, pos + 8 + len));
      const nul = data.indexOf(0);
      if (type === "tEXt" && nul >= 0) out.push(data.subarray(nul + 1).toString("latin1"));
      if (type === "zTXt" && nul >= 0) {
        try {
          out.push(inflateSync(data.subarray(nul + 2)).toString("latin1"));
        } catch {
          /* a damaged chunk carries no text */
        }
      }
      if (type === "iTXt" && nul >= 0) {
        // keyword\0 flag method lang\0 translated\0 text
        const compressed = data[nul + 1] === 1;
        const langEnd = data.indexOf(0, nul + 3);
        const transEnd = langEnd >= 0 ? data.indexOf(0, langEnd + 1) : -1;
        if (transEnd >= 0) {
          const text = data.subarray(transEnd + 1);
          try {
            out.push((compressed ? inflateSync(text) : text).toString("utf8"));
          } catch {
            /* as above */
          }
        }
      }
      if (type === "IEND") break;
      pos += 12 + len;
    }
  } else if (b.length > 4 && b[0] === 0xff && b[1] === 0xd8) {
    let pos = 2;
    while (pos + 4 <= b.length && b[pos] === 0xff) {
      const marker = b[pos + 1] ?? 0;
      if (marker === 0xda || marker === 0xd9) break;
      const len = b.readUInt16BE(pos + 2);
      if (marker === 0xfe) out.push(b.subarray(pos + 4, pos + 2 + len).toString("utf8"));
      pos += 2 + len;
    }
  }
  return out;
}

/** Picks "label: value" (or "label=value") lines whose label is one the document type knows. */
export function fieldsFromText(document: OcrDocument, texts: readonly string[]): Record<string, string> {
  const fields: Record<string, string> = {};
  const labels = LABELS[document];
  for (const line of texts.flatMap((t) => t.split(/\r?\n/))) {
    const m = /^\s*([^:=：]{1,40})\s*[:=：]\s*(.+?)\s*$/.exec(line);
    if (!m?.[1] || !m[2]) continue;
    const label = m[1].trim().toLowerCase();
    for (const [field, names] of Object.entries(labels)) {
      if (names.includes(label) && fields[field] === undefined) fields[field] = m[2].slice(0, 200);
    }
  }
  return fields;
}

export function createLocalOcr(): OcrAdapter {
  return {
    kind: "local",
    read(document, image) {
      const fields = fieldsFromText(document, textLayer(image));
      return Promise.resolve({ recognised: Object.keys(fields).length > 0, fields });
    },
  };
}
