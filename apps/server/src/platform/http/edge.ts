import { CODE, pickLang, renderMessage, type Lang } from "@tessera/contracts";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "./errors";

/**
 * The edge rules every request meets before any route sees it, whatever its schema (back-office or IM):
 * - no NUL byte and no ill-formed UTF-16 (a lone surrogate) in any string or key of the body, the query
 *   or the path parameters: PostgreSQL refuses both in text and JSON, so they would end as a 500;
 * - a body, when there is one, is an object or an array: never a bare JSON string, number or boolean;
 * - Fastify's own router errors (malformed escapes, over-long parameters) reply in the shape of the API
 *   the path belongs to, without echoing the input.
 * A refusal is an EdgeInputError naming the field; the back-office error handler renders it as the
 * envelope's "Invalid parameter: <field>", the IM one as its invalid-parameter error.
 */
export class EdgeInputError extends AppError {
  constructor(field: string) {
    super(CODE.INVALID_PARAMETER, "validation.invalidParameter", { field }, field);
    this.name = "EdgeInputError";
  }
}

/** A NUL, or a surrogate code unit that is not half of a pair (in `u` mode a pair is one code point). */
const FORBIDDEN = /[\0\p{Cs}]/u;
/** Field names in a refusal are cut to this many characters: the reply never echoes input unbounded. */
const FIELD_MAX = 64;

export function isCleanText(s: string): boolean {
  return !FORBIDDEN.test(s);
}

/** A path into a value as a linked list from the leaf up (no copying per level: nesting may be deep). */
interface PathNode {
  key: string | number;
  up: PathNode | undefined;
}

function fieldName(node: PathNode | undefined, root: string): string {
  if (node === undefined) return root;
  const keys: string[] = [];
  for (let n: PathNode | undefined = node; n !== undefined; n = n.up) {
    keys.push(isCleanText(String(n.key)) ? String(n.key) : "?");
  }
  const name = keys.reverse().join(".");
  return name.length > FIELD_MAX ? `${name.slice(0, FIELD_MAX)}…` : name;
}

/** Parsed data to walk: objects and arrays (the query parser's objects have their own prototype), not bytes or streams. */
function isWalkable(v: object): boolean {
  if (Array.isArray(v)) return true;
  if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer || v instanceof Date) return false;
  return typeof (v as { pipe?: unknown }).pipe !== "function";
}

/**
 * The path (dot-joined) of the first string or key with a NUL or a lone surrogate in a parsed value, or
 * undefined when it is clean. Walks plain objects and arrays without recursion (a deeply nested body
 * cannot exhaust the stack) in time linear in the value's size; buffers and streams are left alone.
 */
export function firstDirtyField(value: unknown, root: string): string | undefined {
  const stack: { v: unknown; path: PathNode | undefined }[] = [{ v: value, path: undefined }];
  while (stack.length > 0) {
    const { v, path } = stack.pop() as { v: unknown; path: PathNode | undefined };
    if (typeof v === "string") {
      if (!isCleanText(v)) return fieldName(path, root);
    } else if (typeof v === "object" && v !== null && isWalkable(v)) {
      if (Array.isArray(v)) {
        for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i] as unknown, path: { key: i, up: path } });
      } else {
        const entries = Object.entries(v);
        for (let i = entries.length - 1; i >= 0; i--) {
          const [k, item] = entries[i] as [string, unknown];
          if (!isCleanText(k)) return fieldName({ key: k, up: path }, root);
          stack.push({ v: item, path: { key: k, up: path } });
        }
      }
    }
  }
  return undefined;
}

/** Throws the edge refusal when a parsed body, query or parameter set breaks the text rule. */
export function refuseDirtyInput(value: unknown, root: string): void {
  const field = firstDirtyField(value, root);
  if (field !== undefined) throw new EdgeInputError(field);
}

function checkRequest(req: FastifyRequest): void {
  const body: unknown = req.body;
  if (body !== undefined && body !== null && typeof body !== "object") throw new EdgeInputError("body");
  refuseDirtyInput(req.params, "params");
  refuseDirtyInput(req.query, "query");
  refuseDirtyInput(body, "body");
}

/** Registers the input rules on every route of the app, the IM's included (hooks are inherited). */
export function registerEdgeRules(app: FastifyInstance): void {
  app.addHook("preValidation", (req, _reply, done) => {
    try {
      checkRequest(req);
      done();
    } catch (err) {
      done(err as FastifyError);
    }
  });
}

/** How an API that owns a path prefix answers a refused URL: status and body. */
export type EdgeErrorShape = (kind: "badUrl" | "paramTooLong", lang: Lang) => { status: number; body: unknown };

/**
 * The shapes of Fastify's router errors by path prefix. The back-office envelope is the default; the
 * IM plugin adds its own for /{org}/{app}.
 */
export class EdgeErrorShapes {
  private readonly shapes: { prefix: string; shape: EdgeErrorShape }[] = [];

  add(prefix: string, shape: EdgeErrorShape): void {
    this.shapes.push({ prefix, shape });
  }

  reply(err: FastifyError, req: FastifyRequest, reply: FastifyReply): FastifyReply {
    const url = req.raw.url ?? "";
    const lang = pickLang(
      typeof req.headers.lang === "string" ? req.headers.lang : undefined,
      req.headers["accept-language"],
    );
    const kind = err.code === "FST_ERR_MAX_PARAM_LENGTH" ? "paramTooLong" : "badUrl";
    const owner = this.shapes.find(
      (s) => url === s.prefix || url.startsWith(`${s.prefix}/`) || url.startsWith(`${s.prefix}?`),
    );
    if (owner) {
      const { status, body } = owner.shape(kind, lang);
      return reply.status(status).send(body);
    }
    if (err.code !== "FST_ERR_BAD_URL" && err.code !== "FST_ERR_MAX_PARAM_LENGTH") {
      req.log.error({ err }, "router error");
      return reply.status(500).send({ code: CODE.INTERNAL, data: null, msg: renderMessage("error.internal", lang) });
    }
    return reply.status(400).send({
      code: CODE.INVALID_PARAMETER,
      data: { field: "path" },
      msg: renderMessage("validation.invalidParameter", lang, { field: "path" }),
    });
  }
}

declare module "fastify" {
  interface FastifyInstance {
    /** Where an API mounted under a prefix registers the shape of its router errors. */
    edgeErrorShapes: EdgeErrorShapes;
  }
}
