import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { openPglite, openPostgres } from "../apps/server/src/db/database";
import { runLoad, type LoadResult } from "./lib/load";
import { startServer, type RunningServer } from "./lib/server";
import { sized } from "./lib/scale";

/**
 * IM REST: the conversation list and history roaming over 100,000 stored messages, beside the bare HTTP
 * ceiling of Fastify (one trivial route in an empty app, its own process) measured in the same run.
 *
 * Seeding: a first server registers the users and stores one real message per conversation through the
 * REST API (so every row is the server's own); it stops, and SQL multiplies those messages to 100,000 in
 * one statement; the measured server then starts on that database.
 */

const repoRoot = path.resolve(import.meta.dirname, "..");
const ORG = "tessera";
const APP = "im";
const TOTAL_MESSAGES = sized(100_000, 12_000);
/** Alice's conversations: one long one with bob (the roaming target) and PEERS short ones. */
const PEERS = 100;
const PER_PEER = 100;
const PASSWORD = "bench-pw-1";
/** Names of this run (a PostgreSQL database may keep earlier runs' users). */
const TAG = Date.now().toString(36);
const ALICE = `alice-${TAG}`;
const BOB = `bob-${TAG}`;

async function call<T>(server: RunningServer, method: string, p: string, body?: unknown, token?: string): Promise<T> {
  const res = await fetch(`${server.baseUrl}/${ORG}/${APP}/${p}`, {
    method,
    headers: { "content-type": "application/json", ...(token && { authorization: `Bearer ${token}` }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${method} ${p}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

const login = async (server: RunningServer, username: string) =>
  (
    await call<{ access_token: string }>(server, "POST", "token", {
      grant_type: "password",
      username,
      password: PASSWORD,
    })
  ).access_token;

/** Registers the users and stores one message per conversation through the API. */
async function seedThroughApi(server: RunningServer): Promise<void> {
  const peers = Array.from({ length: PEERS }, (_, i) => `peer${i}-${TAG}`);
  for (const username of [ALICE, BOB, ...peers]) await call(server, "POST", "users", { username, password: PASSWORD });
  const token = await login(server, ALICE);
  await call(server, "POST", "messages/users", { to: peers, type: "txt", body: { msg: "hello" } }, token);
  await call(
    server,
    "POST",
    "messages/users",
    { to: [BOB], type: "txt", body: { msg: "the first of many" }, ext: { desk: "FX" } },
    token,
  );
}

/**
 * Multiplies each conversation's message: PER_PEER per peer, the rest with bob, one millisecond apart,
 * with the conversation heads and both sides' conversation rows (last message, unread) brought in line.
 */
async function multiplyMessages(env: Record<string, string>, dataDir: string): Promise<void> {
  const database = env.DATABASE_URL
    ? await openPostgres(env.DATABASE_URL, 1)
    : await openPglite(path.join(dataDir, "pgdata"));
  try {
    const db = database.db;
    const bobCount = TOTAL_MESSAGES - PEERS * PER_PEER;
    await db.transaction().execute(async (tx) => {
      await sql`
        INSERT INTO im_messages (conv_key, seq, chat_type, from_user, to_target, msg_type, created_ms, payload)
        SELECT m.conv_key, m.seq + g, m.chat_type, m.from_user, m.to_target, m.msg_type, m.created_ms + g, m.payload
        FROM im_messages m
        CROSS JOIN LATERAL generate_series(1, CASE WHEN m.to_target = ${BOB} THEN ${bobCount - 1}::int ELSE ${PER_PEER - 1}::int END) AS g
        WHERE m.from_user = ${ALICE}`.execute(tx);
      await sql`
        UPDATE im_conv_heads h SET last_seq = x.seq, last_ms = x.ms
        FROM (SELECT conv_key, max(seq) AS seq, max(created_ms) AS ms FROM im_messages WHERE from_user = ${ALICE} GROUP BY conv_key) x
        WHERE h.conv_key = x.conv_key`.execute(tx);
      await sql`
        UPDATE im_conversations c SET last_message_id = m.id, last_ms = m.created_ms,
          unread = CASE WHEN c.username = ${ALICE} THEN 0 ELSE m.seq END
        FROM im_conv_heads h JOIN im_messages m ON m.conv_key = h.conv_key AND m.seq = h.last_seq
        WHERE c.conv_key = h.conv_key AND m.from_user = ${ALICE}`.execute(tx);
    });
    // Planner statistics as autovacuum would leave them after a bulk load (the embedded database has none).
    await sql`ANALYZE im_messages`.execute(db);
    await sql`ANALYZE im_conversations`.execute(db);
    const count = await sql<{ n: string }>`SELECT count(*) AS n FROM im_messages WHERE from_user = ${ALICE}`.execute(
      db,
    );
    if (Number(count.rows[0]?.n) !== TOTAL_MESSAGES) {
      throw new Error(`seeded ${count.rows[0]?.n} messages, expected ${TOTAL_MESSAGES}`);
    }
  } finally {
    await database.close();
  }
}

/** A bare Fastify app with one trivial JSON route, in its own process like the real server. */
async function startBareFastify(): Promise<{ url: string; stop(): Promise<void> }> {
  const script = `
    import Fastify from "fastify";
    const app = Fastify({ logger: false });
    app.get("/ping", async () => ({ ok: true }));
    await app.listen({ port: 0, host: "127.0.0.1" });
    console.log("PORT " + app.server.address().port);`;
  // cwd in the server workspace, so that "fastify" resolves to the version the server uses.
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
    cwd: path.join(repoRoot, "apps/server"),
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
      const m = /PORT (\d+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.once("exit", (code) => reject(new Error(`bare Fastify exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/ping`,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    },
  };
}

export async function benchImRest(
  seconds: number,
  databaseUrl: string | undefined,
): Promise<Record<string, LoadResult>> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "tessera-bench-im-"));
  // The IM users are seeded with a cheap password hash, and the per-user rate limit is off: logins and the
  // limiter are not what is measured here (one user drives all the load).
  const env: Record<string, string> = {
    IM_RATE_LIMIT_PER_SECOND: "0",
    DATA_DIR: dataDir,
    IM_ORG: ORG,
    IM_APP: APP,
    IM_OPEN_REGISTRATION: "true",
    ARGON2_MEMORY_KIB: "4096",
    ARGON2_ITERATIONS: "1",
    ...(databaseUrl && { DATABASE_URL: databaseUrl }),
  };
  const results: Record<string, LoadResult> = {};
  try {
    const seeding = await startServer(env);
    try {
      await seedThroughApi(seeding);
    } finally {
      await seeding.stop();
    }
    await multiplyMessages(env, dataDir);

    const server = await startServer(env);
    try {
      const token = await login(server, ALICE);
      const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
      const base = `${server.baseUrl}/${ORG}/${APP}`;
      const isJson200 = (status: number, body: string) => status === 200 && body.startsWith("{");
      const roaming = (start: number) =>
        runLoad({
          url: `${base}/users/${ALICE}/messageroaming`,
          method: "POST",
          headers,
          body: {
            queue: `${BOB}@easemob.com`,
            start,
            pull_number: 20,
            is_positive: false,
            msgType: "",
            end: -1,
            startTime: null,
            endTime: null,
            userId: null,
          },
          concurrency: 16,
          durationSeconds: seconds,
          check: (status, body) => isJson200(status, body) && body.includes('"msgs":[{'),
        });
      results["IM conversations"] = await runLoad({
        url: `${base}/sdk/user/${ALICE}/user_channels/list?limit=20&need_mark=true`,
        method: "GET",
        headers,
        concurrency: 16,
        durationSeconds: seconds,
        check: (status, body) => isJson200(status, body) && body.includes('"channel_infos":[{'),
      });
      results["IM roaming newest"] = await roaming(-1);
      results["IM roaming deep"] = await roaming(Math.floor((TOTAL_MESSAGES - PEERS * PER_PEER) / 2));
    } finally {
      await server.stop();
    }

    const bare = await startBareFastify();
    try {
      results["bare Fastify"] = await runLoad({
        url: bare.url,
        method: "GET",
        concurrency: 16,
        durationSeconds: seconds,
      });
    } finally {
      await bare.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  return results;
}
