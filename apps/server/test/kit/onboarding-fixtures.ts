import { crc32 } from "node:zlib";
import sharp from "sharp";
import { STRONG_PASSWORD, uniqueEmail, type TestApp } from "../harness";

/** A real 64×40 PNG (a licence or ID stand-in), optionally carrying a text layer the local OCR reads. */
export async function pngImage(text?: string, colour = { r: 30, g: 120, b: 200 }): Promise<Buffer> {
  const png = await sharp({ create: { width: 64, height: 40, channels: 3, background: colour } })
    .png()
    .toBuffer();
  if (text === undefined) return png;
  // iTXt: keyword, NUL, not compressed, method 0, empty language and translated keyword, UTF-8 text.
  const data = Buffer.concat([Buffer.from("Comment\0\0\0\0\0", "latin1"), Buffer.from(text, "utf8")]);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write("iTXt", 4, "ascii");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  // Insert before IEND (the last 12 bytes).
  return Buffer.concat([png.subarray(0, png.length - 12), head, data, crc, png.subarray(png.length - 12)]);
}

/** A multipart/form-data body with one file part named `file`. */
export function multipart(
  file: Buffer,
  filename = "image.png",
  contentType = "image/png",
): { body: Buffer; headers: Record<string, string> } {
  const boundary = "----tessera-test-boundary";
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

export function form(fields: Record<string, string>): { body: string; headers: Record<string, string> } {
  return {
    body: new URLSearchParams(fields).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  };
}

export async function upload(
  t: TestApp,
  token: string,
  kind: "license" | "id_front" | "id_back",
  image: Buffer,
): Promise<string> {
  const mp = multipart(image);
  const res = await t.call<{ documentId: string }>("POST", `/api/card-user/realNameAuths/images?kind=${kind}`, {
    token,
    body: mp.body,
    headers: mp.headers,
  });
  if (res.body.code !== 1) throw new Error(`upload failed: ${res.body.msg}`);
  return res.body.data.documentId;
}

export const VALID_FIELDS = {
  companyName: "Blue Harbour Trading Co",
  licenseNumber: "91310000MA1FL4XQ2K",
  licenseValidUntil: "",
  legalName: "Zhang San",
  legalIdNumber: "11010519491231002X",
  idValidUntil: "",
};

/** Uploads the three images and submits the valid fields; returns the application's documents. */
export async function submitRealName(t: TestApp, token: string, overrides: Record<string, string> = {}) {
  const img = await pngImage();
  const docs = {
    licenseDocumentId: await upload(t, token, "license", img),
    idFrontDocumentId: await upload(t, token, "id_front", img),
    idBackDocumentId: await upload(t, token, "id_back", img),
  };
  return t.call<{ state: string; latest: { id: string; state: string } | null }>(
    "POST",
    "/api/card-user/realNameAuths",
    {
      token,
      body: { ...docs, ...VALID_FIELDS, ...overrides },
    },
  );
}

/** A sub-account of the merchant whose owner token is given, logged in. */
export async function addSubAccount(t: TestApp, ownerToken: string, menus: string[]) {
  const email = uniqueEmail("sub");
  const res = await t.call<{ passportId: string }>("POST", "/api/card-brander/passport/sub/add", {
    token: ownerToken,
    body: { email, name: "Clerk Li", password: STRONG_PASSWORD, menus },
  });
  if (res.body.code !== 1) throw new Error(`sub add failed: ${res.body.msg}`);
  const login = await t.call<{ token: string }>("POST", "/api/card-user/login", {
    body: { email, password: STRONG_PASSWORD },
  });
  if (login.body.code !== 1) throw new Error(`sub login failed: ${login.body.msg}`);
  return { email, passportId: res.body.data.passportId, token: login.body.data.token };
}
