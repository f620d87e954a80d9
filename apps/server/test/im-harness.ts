import { randomUUID } from "node:crypto";
import { deriveClientCredentials } from "../src/im/auth";
import { startTestApp, type TestApp } from "./harness";

/** Helpers for the IM tests: the REST base, an app token, users with tokens, and calls with a bearer. */

export interface ImReply<T = Record<string, unknown>> {
  status: number;
  body: T & {
    error?: string;
    error_description?: string;
    error_code?: number;
    data?: unknown;
    entities?: unknown[];
  };
  headers: Record<string, unknown>;
  raw: Buffer;
}

export interface ImTest {
  t: TestApp;
  base: string;
  appToken: string;
  call<T = Record<string, unknown>>(
    method: "GET" | "POST" | "PUT" | "DELETE",
    path: string,
    options?: {
      token?: string | null;
      body?: unknown;
      form?: Record<string, string>;
      headers?: Record<string, string>;
      payload?: Buffer;
    },
  ): Promise<ImReply<T>>;
  /** A new IM user (registered with the app token) and its token. */
  user(prefix?: string): Promise<{ name: string; token: string }>;
  /** A fresh token for a user made by user() (after the clock moved past the old one's expiry). */
  login(name: string): Promise<string>;
  close(): Promise<void>;
}

export async function startImTest(
  env: Record<string, string> = {},
  options: Parameters<typeof startTestApp>[1] = {},
): Promise<ImTest> {
  const t = await startTestApp(env, options);
  const { org, app } = t.config.im;
  const base = `/${org}/${app}`;
  const call: ImTest["call"] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let payload: string | Buffer | undefined;
    if (options.payload) payload = options.payload;
    else if (options.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      payload = new URLSearchParams(options.form).toString();
    } else if (options.body !== undefined) {
      headers["content-type"] ??= "application/json";
      payload = JSON.stringify(options.body);
    } else {
      headers["content-type"] ??= "application/json";
    }
    const res = await t.app.inject({
      method,
      url: path.startsWith("/") ? path : `${base}/${path}`,
      headers,
      ...(payload !== undefined && { payload }),
    });
    const isJson = String(res.headers["content-type"] ?? "").includes("json");
    return {
      status: res.statusCode,
      body: isJson ? res.json() : ({} as never),
      headers: res.headers,
      raw: res.rawPayload,
    };
  };
  const creds = deriveClientCredentials(t.ctx.secret, `${org}#${app}`);
  const issueAppToken = async () => {
    const tokenRes = await call<{ access_token: string }>("POST", "token", {
      body: { grant_type: "client_credentials", client_id: creds.clientId, client_secret: creds.clientSecret },
    });
    if (tokenRes.status !== 200) throw new Error(`client credentials failed: ${JSON.stringify(tokenRes.body)}`);
    return tokenRes.body.access_token;
  };
  const appToken = await issueAppToken();
  return {
    t,
    base,
    appToken,
    call,
    async user(prefix = "u") {
      const name = `${prefix}${randomUUID().replace(/-/g, "").slice(0, 10)}`.toLowerCase();
      // A fresh app token: tests move the clock, possibly past the first token's expiry.
      const reg = await call("POST", "users", {
        token: await issueAppToken(),
        body: { username: name, password: "pw-secret-1", nickname: prefix },
      });
      if (reg.status !== 200) throw new Error(`register failed: ${JSON.stringify(reg.body)}`);
      const login = await call<{ access_token: string }>("POST", "token", {
        body: { grant_type: "password", username: name, password: "pw-secret-1", timestamp: Date.now() },
      });
      if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
      return { name, token: login.body.access_token };
    },
    async login(name) {
      const login = await call<{ access_token: string }>("POST", "token", {
        body: { grant_type: "password", username: name, password: "pw-secret-1" },
      });
      if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
      return login.body.access_token;
    },
    close: () => t.close(),
  };
}

/** A multipart/form-data body with one file and optional text fields. */
export function multipart(
  file: { field?: string; filename: string; contentType: string; data: Buffer },
  fields: Record<string, string> = {},
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----tessera${randomUUID().replace(/-/g, "")}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? "file"}"; filename="${file.filename}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
    ),
    file.data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(parts), headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

/**
 * Small images for the thumbnail tests: a 16×16 picture as PNG, as baseline JPEG (4:2:0) and as raw PPM
 * pixels, from CPython's test suite (Lib/test/imghdrdata, PSF licence).
 */
export const TEST_IMAGES = {
  png: Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAMAAAAoLQ9TAAAAIGNIUk0AAHomAACAhAAA+gAAAIDoAAB1MAAA6mAAADqYAAAXcJy6UTwAAAHFUExURQAAAE6NwEqGujxxnjdolgAAAAAAAAAAAAAAAAAAAE6PxEyKv0iFtkN9rT10oTlsljZmkAAAAAAAAFKRxv3dSvnVPgAAADJghwAAAP3VNgAAADVokgAAAOzORQAAADZpkxsxRQAAAAAAAOLDRf3ZQQAAAEaBsjZnkQAAAPLhbv3pav3LG0N9rhwyS/Xjb/PBGkB1oz1zogAAAMKaEgAAAAAAAAAAAAAAAAAAAOjHPevFNOvCKuu+Ieu7GMabEgAAAAAAAAAAAAAAAAAAAAAAAAAAAP3eTgAAAAAAAAAAAAAAAPHQP/rTOf3SL/rHGcCXEgAAAAAAAAAAAAAAAAAAAAAAAEiDtER+rUB4p0yKvP///0V/r0F5qD50ojpvmzZplEmFt0aAsUJ7qj51oztwnTdqljhsl0+NwUuIu0R9rUB4pj1zoDltmf/iVVCPw0yJvEiEtT10of/eS//aQU2LvkaAsDtwnP/aQv/WN//TLUqHuUeBskN8qz92pf/XOP/PI//mYf/jV//fTf/bQv/TLv/PJP/rbP/nYf/bQ//XOf/MHDpwnP/nYv/jWP/fTv/TL//bRP/XOv/TMP/QJf/YOv/UMP/QJpJJAAIAAABWdFJOUwCv7feSCwMoQRV+oKGjp6qqSBi994IKtkPtJPdPiD22XExHa/dG96pOpvf311uzwm/3S3o0CCE8NaqpqampeSACCRMSLB73QBwFAUzM99h7Ox1CRTgf+DIQcQAAAAFiS0dEWgO7paIAAAD1SURBVBjTY2AAAkamsPAIZhZWNgYoiIyKjomNi2dnhQkkJCYlp6TGc3CCeVzcPLx8/AJp8fGCQiC+cHpGWGZWdk48UCBXRFSMIS+/IDqmMA7IF5coKpaUYihJKE1KLkuNlxaXkS2vqJRjqKquqZVXUBRU4lBWqausV2VQy8xS19DUamhsaq5radVWYtCJKdTVa2tvbOrobGnt0udgMDDsNmrr6e3r6Oxv7eoyNmEwNTO3APItraxtbG3tOOwZHBydnHv7JkycNLmLw8LFFeJ6twlTpk6L0nb3cPT0Agt4+/hO6/LzD3CGec400CJIKTgk1BTIBgBAYkJ/yC2b5QAAACV0RVh0ZGF0ZTpjcmVhdGUAMjAxNC0wMS0yNlQyMDo1OTozNyswMjowMPuaB3cAAAAldEVYdGRhdGU6bW9kaWZ5ADIwMTQtMDEtMjZUMjA6NTk6MDArMDI6MDDB74amAAAAAElFTkSuQmCC",
    "base64",
  ),
  jpg: Buffer.from(
    "/9j/4AAQSkZJRgABAQEAAQABAAD/2wBDAAMCAgICAgMCAgIDAwMDBAYEBAQEBAgGBgUGCQgKCgkICQkKDA8MCgsOCwkJDRENDg8QEBEQCgwSExIQEw8QEBD/2wBDAQMDAwQDBAgEBAgQCwkLEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBD/wAARCAAQABADASIAAhEBAxEB/8QAFgABAQEAAAAAAAAAAAAAAAAABwQF/8QAJBAAAQQBBAICAwAAAAAAAAAAAQIDBAYFBwgSExEiABQJMTL/xAAVAQEBAAAAAAAAAAAAAAAAAAAABv/EACMRAAECBQMFAAAAAAAAAAAAAAECEQMEBQYhABIxFRZhgeH/2gAMAwEAAhEDEQA/ABSm0mobc8HmExLUlRzzEWPkJWW+ulrsaUVAseUgslSlH9LKuPryIKuWPZdskzXmm3fX5m2nF4GlVxx/HOpx4ks51+MiU/Iaad7UcUo4tILoS4kqcWkezS0hO/HvuRp0rO6hWnWO1UisZVuFi4GFeyEpmGepa5S5SWVPuciFKRFLgSrwetnyPIB+Vb4N9mKhQMzo5po9XLdDs9d6ZVix2VEhiL9kuNPxw2gEKcDQ/rs8AuA8VAe0vdl7VOYn+27flGAUgmITjbhSmCg3BYlyeWDkMolvw4KOp1KM6iCNvngZHwetf//Z",
    "base64",
  ),
  ppm: Buffer.from(
    "UDYKMTYgMTYKMjU1CgAAAAAAAAAAAAAAAE6NwEqGukiDtER+rUB4pzxxnjdolgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAEyKvP///0V/r0F5qD50ojpvmzZplAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAEmFt0aAsUJ7qj51oztwnTdqljZplAAAAAAAAAAAAAAAAAAAAAAAAE6PxEyKv0iFtkN9rT10oTlsljZmkDhslzZplDZplAAAAAAAAAAAAAAAAAAAAFKRxk+NwUuIu0iDtER9rUB4pj1zoDltmTZplDZplDZplAAAAP/iVf3dSvnVPgAAAFCPw0yJvEiEtUV/r0F5qD10oTpvmzZplDZplDZplDJghwAAAP/eS//aQf3VNgAAAE2LvkmFt0aAsEJ7qj51oztwnDdqljZplDVokjJghwAAAOzORf/aQv/WN//TLQAAAEqHuUeBskN8qz92pTZpkxsxRQAAAAAAAAAAAAAAAOLDRf3ZQf/XOP/TLf/PIwAAAEaBskR9rUB4pjZnkQAAAPLhbv3pav/mYf/jV//fTf/bQv/XOP/TLv/PJP3LGwAAAEN9rkF5qD10oRwyS/Xjb//rbP/nYf/jV//fTf/bQ//XOf/TLv/PJP/MHPPBGgAAAEB1oz1zojpwnAAAAP/rbP/nYv/jWP/fTv/bQ//XOf/TL//PJP/MHP/MHMKaEgAAAAAAAAAAAAAAAAAAAP/nYv/jWP/fTujHPevFNOvCKuu+Ieu7GOu7GMabEgAAAAAAAAAAAAAAAAAAAAAAAP/jWP/fTv/bRP/XOv/TMP/QJf/MHAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAP3eTv/bRP/YOv/UMP/QJv////3LGwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAPHQP/rTOf3SL//QJv/MHPrHGcCXEgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==",
    "base64",
  ),
};
