import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerMerchant, STRONG_PASSWORD, type TestApp } from "../../../test/harness";
import { startImTest, type ImTest } from "../../../test/im-harness";
import { registerOperator } from "../../../test/operators";

/**
 * The fuzz tier (issue 24): every operation of the OpenAPI document (/api/docs/json), so a new route is
 * covered without anyone listing it, gets schema-derived bad inputs — missing fields, wrong types, huge
 * strings, NUL bytes, lone surrogates, impossible dates, negative and huge numbers, malformed path
 * escapes, over-long parameters, a bare JSON value as the body — as two tenants, an operator and nobody. It asserts:
 * never a 5xx, always the envelope {code, data, msg} on an error, never the other tenant's data. Bounded:
 * a fixed seed and a fixed number of requests per operation.
 */
const SEED = 0x7e55e7a;
const REQUESTS_PER_OPERATION = 8;

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  $ref?: string;
};
type Parameter = { name: string; in: "path" | "query" | "header"; schema?: Schema };
type Operation = { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: Schema }> } };
type Document = { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema> } };

/** mulberry32: a small seeded generator, so every run sends the same requests. */
function generator(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BAD_VALUES: unknown[] = [
  "",
  "x".repeat(20_000),
  "a\u0000b",
  "a\ud800b",
  "2026-02-30",
  "2025-13-45",
  -1,
  -(2 ** 53),
  1e308,
  "99999999999999999999999",
  1.5,
  true,
  null,
  [],
  {},
  ["a\u0000"],
  { nested: "\udc00" },
  "%zz",
  "' OR 1=1 --",
];
const BAD_PATH_SEGMENTS = [
  "%zz",
  "%",
  "%00",
  "%ED%A0%80",
  "x".repeat(150),
  "-1",
  "0",
  "99999999999999999999999",
  "2026-02-30",
  "%20",
];
const BAD_QUERY_VALUES = [
  "%zz",
  "%00",
  "a%00b",
  "%ED%A0%80",
  "2026-02-30",
  "-1",
  "1e309",
  "99999999999999999999999",
  "x".repeat(5000),
  "true",
  "[]",
];

let t: TestApp;
let doc: Document;
const tenants: { email: string; token: string; marker: string }[] = [];
let operator: { email: string; token: string };
let im: ImTest;
/** The IM API's callers: two users and the app (its REST paths are in the same document). */
const imTokens: string[] = [];

async function freshToken(email: string): Promise<string> {
  const login = await t.call<{ token: string }>("POST", "/api/card-user/login", {
    body: { email, password: STRONG_PASSWORD, version: "domestic" },
  });
  return login.body.data.token;
}

/** Tokens a fuzzed call revoked (logout, password change) are replaced, so later operations still run signed in. */
async function keepSignedIn(): Promise<void> {
  for (const tenant of tenants) {
    const me = await t.call("GET", "/api/card-user/userInfo", { token: tenant.token });
    if (me.status === 401) tenant.token = await freshToken(tenant.email);
  }
}

beforeAll(async () => {
  im = await startImTest();
  t = im.t;
  for (const prefix of ["fuzza", "fuzzb"]) imTokens.push((await im.user(prefix)).token);
  imTokens.push(im.appToken);
  for (const name of ["Alpha", "Bravo"]) {
    const marker = `${name}${randomUUID()
      .replace(/[^a-f]/g, "")
      .slice(0, 10)}`;
    const m = await registerMerchant(t, { orgName: `${marker} Trading` });
    tenants.push({ email: m.email, token: m.token, marker });
  }
  operator = await registerOperator(t);
  const res = await t.app.inject({ method: "GET", url: "/api/docs/json" });
  expect(res.statusCode).toBe(200);
  doc = res.json<Document>();
});
afterAll(async () => {
  await im?.close();
});

function resolve(schema: Schema | undefined): Schema {
  let s = schema ?? {};
  for (let i = 0; i < 10 && s.$ref; i++) s = doc.components?.schemas?.[s.$ref.split("/").at(-1) ?? ""] ?? {};
  const alt = s.allOf?.[0] ?? s.anyOf?.find((x) => resolve(x).type !== "null") ?? s.oneOf?.[0];
  return alt ? { ...resolve(alt), ...s, allOf: undefined, anyOf: undefined, oneOf: undefined } : s;
}

/** A value the schema accepts, as far as a plain reading of it goes (the base the mutations start from). */
function validValue(schema: Schema | undefined, depth = 0): unknown {
  const s = resolve(schema);
  if (s.const !== undefined) return s.const;
  if (s.enum && s.enum.length > 0) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type.find((x) => x !== "null") : s.type;
  switch (type) {
    case "string":
      return s.format === "date" ? "2026-01-15" : s.format === "date-time" ? "2026-01-15T08:00:00.000Z" : "1";
    case "integer":
    case "number":
      return 1;
    case "boolean":
      return true;
    case "array":
      return depth > 4 ? [] : [validValue(s.items, depth + 1)];
    case "object":
    case undefined:
    default: {
      if (!s.properties || depth > 4) return {};
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(s.properties)) out[k] = validValue(v, depth + 1);
      return out;
    }
  }
}

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)] as T;
}

interface Case {
  url: string;
  body: unknown;
  raw?: string;
}

/** The i-th request of an operation: first the plain one, then one mutation each (a field, a parameter, or the body's shape). */
function caseOf(random: () => number, path: string, op: Operation, i: number): Case {
  const params = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === "path");
  const query = params.filter((p) => p.in === "query");
  const bodySchema = op.requestBody?.content?.["application/json"]?.schema;
  const base = bodySchema ? validValue(bodySchema) : undefined;
  const segments: Record<string, string> = Object.fromEntries(pathParams.map((p) => [p.name, "1"]));
  const q: Record<string, string> = {};
  for (const p of query) if (random() < 0.5) q[p.name] = String(validValue(p.schema));
  let body: unknown = base;
  let raw: string | undefined;

  const target = i === 0 ? "none" : pick(random, ["path", "query", "body", "body", "shape"] as const);
  if (target === "path" && pathParams.length > 0) {
    segments[pick(random, pathParams).name] = pick(random, BAD_PATH_SEGMENTS);
  } else if (target === "query" && query.length > 0) q[pick(random, query).name] = pick(random, BAD_QUERY_VALUES);
  else if (
    target === "body" &&
    base !== undefined &&
    typeof base === "object" &&
    base !== null &&
    !Array.isArray(base)
  ) {
    const keys = Object.keys(base);
    const roll = random();
    if (keys.length === 0 || roll < 0.2) body = {};
    else {
      const copy = { ...(base as Record<string, unknown>) };
      if (roll < 0.4) delete copy[pick(random, keys)];
      else copy[pick(random, keys)] = pick(random, BAD_VALUES);
      body = copy;
    }
  } else if (target === "shape") {
    raw = pick(random, ['"x"', "42", "null", "[1,2]", "{", '{"a":"\\ud800"}', '{"a":"\\u0000"}']);
  }
  let url = path.replace(/\{(\w+)\}/g, (_m, name: string) => segments[name] ?? "1").replace("{*}", "x");
  const qs = Object.entries(q)
    .map(([k, v]) => `${encodeURIComponent(k)}=${/%/.test(v) ? v : encodeURIComponent(v)}`)
    .join("&");
  if (qs) url += `?${qs}`;
  return { url, body, ...(raw !== undefined && { raw }) };
}

describe("fuzz tier", () => {
  it("no operation answers 5xx, every error is the envelope, no tenant sees the other's data", async () => {
    const random = generator(SEED);
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([method]) => ["get", "post", "put", "delete", "patch"].includes(method))
        .map(([method, op]) => ({ path, method: method.toUpperCase() as "GET" | "POST" | "PUT" | "DELETE", op })),
    );
    expect(operations.length).toBeGreaterThan(100);
    const problems: string[] = [];
    let n = 0;
    for (const { path, method, op } of operations) {
      // A second between operations: request limits (per user, per address) refill as they would.
      t.clock.advance(1);
      if (++n % 25 === 0 || /logout|password/i.test(path)) await keepSignedIn();
      for (let i = 0; i < REQUESTS_PER_OPERATION; i++) {
        const c = caseOf(random, path, op, i);
        const who = i % 4; // tenant 0, tenant 1, the operator (who sees every tenant), nobody
        const me = tenants[who];
        const headers: Record<string, string> = { lang: "en" };
        const isIm = path.startsWith(im.base);
        if (isIm) {
          const token = imTokens[who];
          if (token) headers.authorization = `Bearer ${token}`;
        } else if (me) headers["x-auth-token"] = me.token;
        else if (who === 2) headers["x-auth-token"] = operator.token;
        const hasBody = method !== "GET" && method !== "DELETE";
        let payload: string | undefined;
        if (hasBody && (c.raw !== undefined || c.body !== undefined)) {
          headers["content-type"] = "application/json";
          payload = c.raw ?? JSON.stringify(c.body);
        }
        const res = await t.app.inject({ method, url: c.url, headers, ...(payload !== undefined && { payload }) });
        const where = `${method} ${c.url.slice(0, 200)} ${payload?.slice(0, 200) ?? ""} → ${res.statusCode}`;
        if (res.statusCode >= 500) problems.push(`5xx: ${where} ${res.body.slice(0, 200)}`);
        const isJson = String(res.headers["content-type"] ?? "").includes("json");
        if (res.statusCode >= 400 && isIm) {
          const body = isJson ? res.json<Record<string, unknown>>() : undefined;
          if (!body || typeof body.error !== "string" || typeof body.error_description !== "string") {
            problems.push(`not the IM error shape: ${where} ${res.body.slice(0, 200)}`);
          } else if (res.body.length > 2000) problems.push(`long error reply: ${where}`);
        } else if (res.statusCode >= 400 && c.url.startsWith("/api")) {
          const body = isJson ? res.json<Record<string, unknown>>() : undefined;
          if (!body || typeof body.code !== "number" || typeof body.msg !== "string" || !("data" in body)) {
            problems.push(`not the envelope: ${where} ${res.body.slice(0, 200)}`);
          } else if (res.body.length > 2000) problems.push(`long error reply: ${where}`);
        }
        for (const other of tenants) {
          if (!isIm && who !== 2 && other !== me && res.body.includes(other.marker)) {
            problems.push(`${me?.marker ?? "nobody"} saw ${other.marker}'s data: ${where}`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
  }, 300_000);
});
