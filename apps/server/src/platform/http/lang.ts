import { pickLang, type Lang } from "@tessera/contracts";
import type { FastifyInstance } from "fastify";

declare module "fastify" {
  interface FastifyRequest {
    /** The user's interface language: the `lang` header the web app sends, else Accept-Language. */
    lang: Lang;
  }
}

export function registerLang(app: FastifyInstance): void {
  app.decorateRequest("lang", "cn");
  app.addHook("onRequest", (req, _reply, done) => {
    const explicit = req.headers.lang;
    req.lang = pickLang(typeof explicit === "string" ? explicit : undefined, req.headers["accept-language"]);
    done();
  });
}
