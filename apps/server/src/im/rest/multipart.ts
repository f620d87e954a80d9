/**
 * A small multipart/form-data reader for the upload calls (the body is already buffered, within the
 * route's size limit). Returns the text fields and the file parts.
 */
export interface UploadedPart {
  field: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

export interface MultipartBody {
  fields: Record<string, string>;
  files: UploadedPart[];
}

export function boundaryOf(contentType: string | undefined): string | null {
  const m = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType ?? "");
  const b = m?.[1] ?? m?.[2];
  return b && b.length <= 200 ? b.trim() : null;
}

function headerParam(header: string, name: string): string | undefined {
  const star = new RegExp(`${name}\\*=(?:UTF-8|utf-8)''([^;]+)`).exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1]);
    } catch {
      return star[1];
    }
  }
  const m = new RegExp(`(?:^|;)\\s*${name}="((?:[^"\\\\]|\\\\.)*)"`, "i").exec(header) ?? new RegExp(`(?:^|;)\\s*${name}=([^;]+)`, "i").exec(header);
  return m?.[1]?.replace(/\\(.)/g, "$1");
}

export function parseMultipart(body: Buffer, boundary: string): MultipartBody | null {
  const delimiter = Buffer.from(`--${boundary}`);
  const out: MultipartBody = { fields: {}, files: [] };
  let pos = body.indexOf(delimiter);
  if (pos < 0) return null;
  for (;;) {
    pos += delimiter.length;
    // "--" after a delimiter closes the body.
    if (body[pos] === 0x2d && body[pos + 1] === 0x2d) return out;
    if (body[pos] === 0x0d && body[pos + 1] === 0x0a) pos += 2;
    const headerEnd = body.indexOf("\r\n\r\n", pos);
    if (headerEnd < 0) return null;
    const headers = body.subarray(pos, headerEnd).toString("utf8").split("\r\n");
    const next = body.indexOf(Buffer.from(`\r\n--${boundary}`), headerEnd + 4);
    if (next < 0) return null;
    const data = body.subarray(headerEnd + 4, next);
    let disposition = "";
    let contentType = "application/octet-stream";
    for (const h of headers) {
      const i = h.indexOf(":");
      if (i < 0) continue;
      const name = h.slice(0, i).trim().toLowerCase();
      const value = h.slice(i + 1).trim();
      if (name === "content-disposition") disposition = value;
      else if (name === "content-type") contentType = value;
    }
    const field = headerParam(disposition, "name");
    if (field !== undefined) {
      const filename = headerParam(disposition, "filename");
      if (filename !== undefined) out.files.push({ field, filename, contentType, data: Buffer.from(data) });
      else out.fields[field] = data.toString("utf8");
    }
    pos = next + 2;
  }
}
