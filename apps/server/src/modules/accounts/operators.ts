import { envelope, newOperatorReq, type NewOperatorReq } from "@tessera/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { isUniqueViolation, withTx, type Db } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { actorOf, type Guard } from "../../platform/auth/guard";
import { audit } from "../../platform/audit";
import type { PasswordHasher } from "../../platform/crypto/passwords";
import { ok } from "../../platform/http/envelope";
import { conflict } from "../../platform/http/errors";
import * as repo from "./repo";

/**
 * Platform operators add further operators: the first one comes from the first start, and money
 * decisions such as a withdrawal's second review need a different person.
 */
export async function addOperator(
  deps: { db: Db; hasher: PasswordHasher },
  actor: Actor,
  req: NewOperatorReq,
): Promise<{ userId: string }> {
  const email = req.email.toLowerCase();
  if (await repo.findUserByEmail(deps.db, email)) throw conflict("operator.emailTaken", "email");
  const passwordHash = await deps.hasher.hash(req.password);
  try {
    const userId = await withTx(deps.db, async (tx) => {
      const id = await repo.insertUser(tx, { kind: "operator", merchantId: null, email, passwordHash });
      await audit(tx, { actorUserId: actor.userId, action: "account.addOperator", subjectType: "user", subjectId: id });
      return id;
    });
    return { userId: String(userId) };
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict("operator.emailTaken", "email");
    throw err;
  }
}

/** `POST /api/ops/operators`, operators only. */
export function operatorRoutes(deps: { db: Db; hasher: PasswordHasher; guard: Guard }): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    app.post(
      "/operators",
      {
        schema: {
          tags: ["ops"],
          security: [{ authToken: [] }],
          summary: "Add a platform operator",
          body: newOperatorReq,
          response: { 200: envelope(z.object({ userId: z.string() })) },
        },
        preHandler: deps.guard({ kinds: ["operator"] }),
      },
      async (req) => ok(await addOperator(deps, actorOf(req), req.body)),
    );
  };
}
