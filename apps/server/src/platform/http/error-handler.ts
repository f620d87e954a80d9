import { CODE, isMessageKey, renderMessage, type ErrorEnvelope, type Lang } from "@tessera/contracts";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { AppError } from "./errors";

function send(reply: FastifyReply, status: number, body: ErrorEnvelope): FastifyReply {
  return reply.status(status).send(body);
}

/** Turns the first validation issue into the spec's message, or "Invalid parameter: <field>". */
function validationReply(lang: Lang, issue: { message?: string; instancePath: string }): ErrorEnvelope {
  const field = issue.instancePath.replace(/^\//, "").replace(/\//g, ".") || undefined;
  const msg =
    issue.message !== undefined && isMessageKey(issue.message)
      ? renderMessage(issue.message, lang, { field: field ?? "body" })
      : renderMessage("validation.invalidParameter", lang, { field: field ?? "body" });
  return { code: CODE.INVALID_PARAMETER, data: field ? { field } : null, msg };
}

/**
 * One error policy for the back-office API: AppErrors and validation failures become a 4xx with the
 * envelope and a readable message; anything else is a bug, logged with the request id, answered 500.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof AppError) {
      const data = err.field ? { field: err.field } : null;
      return send(reply, err.httpStatus, {
        code: err.code,
        data,
        msg: renderMessage(err.messageKey, req.lang, err.params),
      });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const first = err.validation[0];
      return send(
        reply,
        400,
        first ? validationReply(req.lang, first) : { code: CODE.INVALID_PARAMETER, data: null, msg: err.message },
      );
    }
    // Fastify's own client errors: malformed JSON, wrong content type, body too large.
    if (err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500) {
      const msg = renderMessage("validation.invalidParameter", req.lang, { field: "body" });
      // The reason, cut short: some of Fastify's messages quote the request (a content type, a URL).
      const reason = err.message.length > 120 ? `${err.message.slice(0, 120)}…` : err.message;
      return send(reply, err.statusCode, { code: CODE.INVALID_PARAMETER, data: null, msg: `${msg} (${reason})` });
    }
    req.log.error({ err }, "unhandled error");
    return send(reply, 500, { code: CODE.INTERNAL, data: null, msg: renderMessage("error.internal", req.lang) });
  });
}

export function apiNotFound(req: FastifyRequest, reply: FastifyReply): FastifyReply {
  return send(reply, 404, { code: CODE.NOT_FOUND, data: null, msg: renderMessage("error.notFound", req.lang) });
}
