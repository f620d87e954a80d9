import { randomUUID } from "node:crypto";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { inject } from "vitest";
import { buildApp } from "../src/app";
import { loadConfig, type Config } from "../src/config";
import { createContext, type AppContext } from "../src/context";
import { openPglite, openPostgres } from "../src/db/database";
import { ManualClock } from "../src/platform/clock";

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  clock: ManualClock;
  config: Config;
  /** Sends a request through app.inject and returns the status and parsed body. */
  call<T = unknown>(
    method: "GET" | "POST" | "PUT" | "DELETE",
    url: string,
    options?: CallOptions,
  ): Promise<CallResult<T>>;
  close(): Promise<void>;
}
export interface CallOptions {
  body?: unknown;
  token?: string;
  lang?: "cn" | "tw" | "en";
  headers?: Record<string, string>;
}
export interface CallResult<T> {
  status: number;
  body: { code: number; data: T; msg: string };
  headers: Record<string, unknown>;
}

/** `TestApp.call` over an app: app.inject with the token and language headers, the body parsed when JSON. */
export function injectCaller(app: FastifyInstance): TestApp["call"] {
  return async <T>(
    method: "GET" | "POST" | "PUT" | "DELETE",
    url: string,
    options: CallOptions = {},
  ): Promise<CallResult<T>> => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers["x-auth-token"] = options.token;
    if (options.lang) headers.lang = options.lang;
    const res = await app.inject({
      method,
      url,
      headers,
      ...(options.body !== undefined && { payload: options.body as Record<string, unknown> }),
    });
    const isJson = String(res.headers["content-type"] ?? "").includes("json");
    return {
      status: res.statusCode,
      body: isJson ? res.json<CallResult<T>["body"]>() : (res.body as never),
      headers: res.headers,
    };
  };
}

/**
 * Runs `fn` with the browser globals the published IM client needs (im/scenario/sdk.ts puts `window` on
 * globalThis) out of sight: PGlite takes a `window` for a browser and looks for its files by URL. Files
 * share a worker's globals (vitest.config.ts, `isolate: false`), so a scenario file's `window` is still
 * there when the next file starts its database.
 */
async function outsideBrowserGlobals<T>(fn: () => Promise<T>): Promise<T> {
  const g = globalThis as { window?: unknown };
  const window = g.window;
  delete g.window;
  try {
    return await fn();
  } finally {
    if (window !== undefined) g.window = window;
  }
}

/**
 * A whole server on its own database for one test file: a copy of the migrated PGlite template, or the
 * run's database on the PostgreSQL server when the project is server-postgres. Tests isolate by
 * creating their own merchants and addresses rather than by truncating.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  options: { embedded?: boolean } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "tessera-test-"));
  // DEV_ROUTES: tests read the codes they were "sent" from the dev outbox (lastCode); a test of the
  // production shape passes DEV_ROUTES: "false".
  const config = loadConfig({
    DATA_DIR: dataDir,
    ARGON2_MEMORY_KIB: "4096",
    ARGON2_ITERATIONS: "1",
    LOG_LEVEL: "silent",
    DEV_ROUTES: "true",
    ...env,
  });
  let database;
  if (process.env.TEST_DB === "postgres" && !options.embedded) {
    database = await openPostgres(inject("postgresUrl"), 5);
  } else {
    // `embedded`: an embedded database even in the PostgreSQL project (tests of moving from one to the
    // other); made anew there, since that project has no migrated template.
    const pgdata = path.join(dataDir, "pgdata");
    const template = inject("pgliteTemplate") as string | undefined;
    if (template) cpSync(template, pgdata, { recursive: true });
    database = await outsideBrowserGlobals(() => openPglite(pgdata));
  }
  const clock = new ManualClock();
  const ctx = await createContext(config, { database, clock, log: () => undefined });
  const app = await buildApp(ctx);
  await app.ready();
  return {
    app,
    ctx,
    clock,
    config,
    call: injectCaller(app),
    async close() {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const uniqueEmail = (label = "user") => `${label}-${randomUUID().slice(0, 12)}@example.com`;
export const STRONG_PASSWORD = "Tessera#2026";

/** The last code the local adapter "sent" to an address. */
export async function lastCode(t: TestApp, to: string): Promise<string> {
  const res = await t.call<{ list: { body: string }[] }>(
    "GET",
    `/api/dev/outbox?to=${encodeURIComponent(to)}&pageSize=20`,
  );
  const body = res.body.data.list[0]?.body ?? "";
  const code = /\b(\d{6})\b/.exec(body)?.[1];
  if (!code) throw new Error(`no code in the outbox for ${to}`);
  return code;
}

/** Registers a merchant through the API and logs in; returns its email, ids and token. */
export async function registerMerchant(
  t: TestApp,
  options: {
    version?: "domestic" | "international";
    country?: string;
    currency?: "USD" | "HKD";
    orgName?: string;
  } = {},
): Promise<{ email: string; token: string; merchantId: string; userId: string }> {
  const email = uniqueEmail("merchant");
  const version = options.version ?? "domestic";
  await t.call("POST", "/api/card-user/sendEmail", { body: { email, scene: "register" } });
  const reg = await t.call<{ userId: string; merchantId: string }>("POST", "/api/card-user/register", {
    body: {
      email,
      emailCode: await lastCode(t, email),
      password: STRONG_PASSWORD,
      confirmPassword: STRONG_PASSWORD,
      orgName: options.orgName ?? "Acme Trading Ltd",
      version,
      ...(version === "international" && { country: options.country ?? "HK", currency: options.currency ?? "USD" }),
    },
  });
  if (reg.body.code !== 1) throw new Error(`register failed: ${reg.body.msg}`);
  const login = await t.call<{ token: string }>("POST", "/api/card-user/login", {
    body: { email, password: STRONG_PASSWORD, version },
  });
  if (login.body.code !== 1) throw new Error(`login failed: ${login.body.msg}`);
  return { email, token: login.body.data.token, merchantId: reg.body.data.merchantId, userId: reg.body.data.userId };
}
