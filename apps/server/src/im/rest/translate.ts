import type { FastifyInstance } from "fastify";
import { IM_LIMITS, imTranslateReq } from "@tessera/contracts";
import { imError } from "../errors";
import { ImAccounts } from "../service/accounts";
import { actorOf, parseBody } from "./http";
import type { RouteContext } from "./plugin";

type P<T extends string> = { Params: Record<T, string> };

/** Translation through the configured adapter (spec 03 §7 "Translation"). */
export function translateRoutes(im: FastifyInstance, { svc, replies }: RouteContext): void {
  const translator = svc.deps.translator;

  im.get<P<"user">>("/users/:user/translate/support/language", async (req, reply) => {
    ImAccounts.self(actorOf(req), req.params.user);
    return replies.send(req, reply, { data: await translator.languages() });
  });

  im.post<P<"user">>("/users/:user/translate", async (req, reply) => {
    ImAccounts.self(actorOf(req), req.params.user);
    const body = req.body as { text?: unknown } | undefined;
    if (typeof body?.text === "string" && body.text.length > IM_LIMITS.translateTextLength) {
      throw imError("translateTooLong");
    }
    const { text, to } = parseBody(imTranslateReq, req.body);
    if (!translator.enabled) throw imError("serviceNotEnabled", { service: "translation" });
    return replies.send(req, reply, { data: [await translator.translate(text, to)] });
  });
}
