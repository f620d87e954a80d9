import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { CODE, envelope, UPLOAD_MAX_BYTES, UPLOAD_PART_BYTES, commodity, type Commodity } from "@tessera/contracts";
import type { FastifyInstance } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Actor } from "../../platform/auth/actor";
import { actorOf, TOKEN_HEADER, tokenOf, type Guard } from "../../platform/auth/guard";
import type { Clock } from "../../platform/clock";
import { ok } from "../../platform/http/envelope";
import { AppError, invalid } from "../../platform/http/errors";
import { acceptMultipart, readMultipart } from "../../platform/http/multipart";
import { BRAND_PAGES, docs } from "./routes";
import type { UnlimitedQrcodeInput } from "../miniprogram";
import type { CommerceService } from "./service";

/**
 * The legacy e-commerce host's session (spec 01 §6, §7): its calls send a `token` header the client
 * keeps in a cookie. `POST /api/login/fcard` exchanges the card platform's session (its token, the
 * "session id") for a legacy token and its expiry; calling it again refreshes the token. A legacy token
 * is the session token sealed with AES-256-GCM under a key derived from the platform secret, with its
 * expiry: it lives at most LEGACY_TOKEN_TTL_SECONDS and never beyond the session (logging out ends both).
 */
export const LEGACY_TOKEN_TTL_SECONDS = 2 * 3600;
const PREFIX = "lg.";
export const LEGACY_HEADER = "token";

export class LegacyTokens {
  private readonly key: Buffer;
  constructor(
    secret: Buffer,
    private readonly clock: Clock,
  ) {
    this.key = createHash("sha256").update(secret).update("legacy-ecommerce-token").digest();
  }

  seal(sessionToken: string, expiresAt: Date): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const body = Buffer.concat([
      cipher.update(JSON.stringify({ s: sessionToken, e: expiresAt.getTime() }), "utf8"),
      cipher.final(),
    ]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
  }

  /** The session token inside a live legacy token; undefined for anything else. */
  open(token: string): string | undefined {
    return this.inspect(token)?.session;
  }

  /** The session inside a live legacy token and when the token ends; undefined for anything else (tampered, expired, not one). */
  inspect(token: string): { session: string; expiresAt: Date } | undefined {
    if (!token.startsWith(PREFIX) || token.length > 400) return undefined;
    const raw = Buffer.from(token.slice(PREFIX.length), "base64url");
    if (raw.length < 29) return undefined;
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      const plain = JSON.parse(
        Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8"),
      ) as { s?: unknown; e?: unknown };
      if (typeof plain.s !== "string" || typeof plain.e !== "number" || plain.e <= this.clock.now().getTime()) {
        return undefined;
      }
      return { session: plain.s, expiresAt: new Date(plain.e) };
    } catch {
      return undefined;
    }
  }
}

/** What the legacy host needs of accounts. */
export interface LegacySessions {
  validate(token: string): Promise<{ valid: boolean; expires_in: number }>;
}

const fcardReq = z.object({
  sessionId: z
    .string({ error: "legacy.sessionInvalid" })
    .min(1, { error: "legacy.sessionInvalid" })
    .max(400, { error: "legacy.sessionInvalid" }),
});
const fcardReply = z.object({ token: z.string(), expires_in: z.number().int(), expireAt: z.string() });

/** `POST /api/login/fcard`, under /api/login. */
export function fcardRoutes({
  tokens,
  sessions,
  clock,
}: {
  tokens: LegacyTokens;
  sessions: LegacySessions;
  clock: Clock;
}): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    app.post(
      "/fcard",
      {
        schema: {
          tags: docs.tags,
          summary: "Exchange the card platform's session for a legacy e-commerce token (and refresh it)",
          body: fcardReq,
          response: { 200: envelope(fcardReply) },
        },
      },
      async (req, reply) => {
        // A legacy token may be refreshed with itself: its session is inside.
        const sessionToken = tokens.open(req.body.sessionId) ?? req.body.sessionId;
        const session = await sessions.validate(sessionToken);
        if (!session.valid) throw new AppError(CODE.UNAUTHORIZED, "legacy.sessionInvalid");
        const ttl = Math.min(LEGACY_TOKEN_TTL_SECONDS, session.expires_in);
        const expireAt = new Date(clock.now().getTime() + ttl * 1000);
        const token = tokens.seal(sessionToken, expireAt);
        void reply.header("set-cookie", `${LEGACY_HEADER}=${token}; Path=/; Max-Age=${ttl}; SameSite=Strict`);
        return ok({ token, expires_in: ttl, expireAt: expireAt.toISOString() });
      },
    );
  };
}

/**
 * The legacy calls send their token in the `token` header: for paths of the legacy host, it stands in
 * for the x-auth-token header the guard reads (registered on the root app, so the video library's legacy
 * calls take it too).
 */
export function acceptLegacyHeader(app: FastifyInstance): void {
  app.addHook("onRequest", (req, _reply, done) => {
    if (req.url.startsWith("/api/ecommerce/") && !req.headers[TOKEN_HEADER]) {
      const raw = req.headers[LEGACY_HEADER];
      const token = Array.isArray(raw) ? raw[0] : raw;
      if (token) req.headers[TOKEN_HEADER] = token;
    }
    done();
  });
}

const shopInfo = z.object({
  shopId: z.string(),
  name: z.string(),
  currency: z.string(),
  version: z.string(),
  commodities: z.number().int(),
  onShelf: z.number().int(),
  orders: z.number().int(),
  toShip: z.number().int(),
  aftersales: z.number().int(),
});
const homepage = z.object({ shop: shopInfo, commodities: z.array(commodity) });
/** WeChat's wxa/getwxacodeunlimit body: scene ≤ 32 visible characters, page without a leading slash, width 280–1280. */
const wxacodeReq = z.object({
  scene: z
    .string({ error: "validation.invalidParameter" })
    .regex(/^[0-9A-Za-z!#$&'()*+,/:;=?@\-._~]{1,32}$/, { error: "validation.invalidParameter" }),
  page: z
    .string()
    .regex(/^[A-Za-z0-9_/-]{0,128}$/, { error: "validation.invalidParameter" })
    .default("pages/index/index"),
  width: z
    .number({ error: "validation.invalidParameter" })
    .int()
    .min(280, { error: "validation.invalidParameter" })
    .max(1280, { error: "validation.invalidParameter" })
    .default(430),
  check_path: z.boolean({ error: "validation.invalidParameter" }).default(true),
  env_version: z.enum(["release", "trial", "develop"], { error: "validation.invalidParameter" }).default("release"),
});
const imageReply = z.object({
  key: z.string(),
  url: z.string(),
  thumbUrl: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});

export interface LegacyNeeds {
  commerce: CommerceService;
  guard: Guard;
  tokens: LegacyTokens;
  clock: Clock;
  /** The mini-program module's wxa/getwxacodeunlimit for the merchant's authorised WeChat app. */
  wxacode(merchantId: number, input: UnlimitedQrcodeInput): Promise<{ appId: string; dataUrl: string }>;
  /** The catalog's image upload (existing storage): key, url, thumbnail. */
  uploadImage(actor: Actor, data: Buffer): Promise<z.infer<typeof imageReply>>;
}

/**
 * The shop's legacy calls under /api/ecommerce: shop/info and school/info (the shop's profile),
 * teacher/v2/homepage (its storefront), weixin/minprogram/getwxacodeunlimit (the mini-program code from the
 * mini-program module's platform adapter), nclass/img/upload (an image into the existing storage) and the livecourse upload
 * handshake (systemuserid, userdata, token) in front of the resumable upload at /api/media/uploads.
 */
export function legacyShopRoutes(needs: LegacyNeeds): FastifyPluginAsyncZod {
  const { commerce, guard, tokens, clock } = needs;
  return async (app) => {
    await acceptMultipart(app, 5 * 1024 * 1024 + 64 * 1024);
    const brand = guard({ roles: ["business"], menu: BRAND_PAGES });
    const profile = async (actor: Actor) => {
      const merchant = await commerce.merchant(actor);
      const counts = await commerce.shopCounts(actor);
      return {
        shopId: String(merchant?.id ?? ""),
        name: merchant?.name ?? "",
        currency: merchant?.currency ?? "CNY",
        version: merchant?.version ?? "domestic",
        ...counts,
      };
    };
    app.post(
      "/shop/info",
      {
        schema: { ...docs, summary: "The shop's profile", response: { 200: envelope(shopInfo) } },
        preHandler: brand,
      },
      async (req) => ok(await profile(actorOf(req))),
    );
    app.post(
      "/school/info",
      {
        schema: {
          ...docs,
          summary: "The shop's profile (the legacy host's school)",
          response: { 200: envelope(shopInfo) },
        },
        preHandler: brand,
      },
      async (req) => ok(await profile(actorOf(req))),
    );
    app.post(
      "/teacher/v2/homepage",
      {
        schema: {
          ...docs,
          summary: "The shop's storefront: profile and goods on shelf",
          response: { 200: envelope(homepage) },
        },
        preHandler: brand,
      },
      async (req) => {
        const actor = actorOf(req);
        const page = await commerce.commodities.commodityPage(actor, { page: 1, pagesize: 20, onShelf: true });
        return ok({ shop: await profile(actor), commodities: page.list satisfies Commodity[] });
      },
    );
    app.post(
      "/weixin/minprogram/getwxacodeunlimit",
      {
        schema: {
          ...docs,
          summary:
            "A mini-program code for a scene from the shop's authorised WeChat mini-program (wxa/getwxacodeunlimit through the mini-program adapter), as a data URL",
          body: wxacodeReq,
          response: {
            200: envelope(z.object({ image: z.string(), scene: z.string(), page: z.string(), appId: z.string() })),
          },
        },
        preHandler: brand,
      },
      async (req) => {
        const actor = actorOf(req);
        if (actor.merchantId === null) throw new AppError(CODE.FORBIDDEN, "auth.forbidden");
        const { scene, page, width, check_path: checkPath, env_version: envVersion } = req.body;
        const code = await needs.wxacode(actor.merchantId, { scene, page, width, checkPath, envVersion });
        return ok({ image: code.dataUrl, scene, page, appId: code.appId });
      },
    );
    app.post(
      "/nclass/img/upload",
      {
        schema: {
          ...docs,
          summary: "Upload an image (multipart field file) into the shop's storage",
          response: { 200: envelope(imageReply) },
        },
        preHandler: brand,
      },
      async (req) => {
        const file = (await readMultipart(req)).files.find((f) => f.field === "file");
        if (!file || file.data.length === 0) throw invalid("catalog.imageInvalid", "file");
        return ok(await needs.uploadImage(actorOf(req), file.data));
      },
    );
    app.get(
      "/livecourse/systemuserid",
      {
        schema: {
          ...docs,
          summary: "The uploader's system user id",
          response: { 200: envelope(z.object({ systemuserid: z.string() })) },
        },
        preHandler: brand,
      },
      (req) => ok({ systemuserid: String(actorOf(req).userId) }),
    );
    app.post(
      "/livecourse/userdata",
      {
        schema: {
          ...docs,
          summary: "What the video upload needs: who uploads, where, in which parts",
          response: {
            200: envelope(
              z.object({
                userid: z.string(),
                shopId: z.string(),
                uploadUrl: z.string(),
                partSize: z.number().int(),
                maxBytes: z.number().int(),
              }),
            ),
          },
        },
        preHandler: brand,
      },
      (req) => {
        const actor = actorOf(req);
        return ok({
          userid: String(actor.userId),
          shopId: String(actor.merchantId ?? ""),
          uploadUrl: "/api/media/uploads",
          partSize: UPLOAD_PART_BYTES,
          maxBytes: UPLOAD_MAX_BYTES,
        });
      },
    );
    app.post(
      "/livecourse/token",
      {
        schema: {
          ...docs,
          summary: "A short-lived token for the resumable video upload (send it as x-auth-token)",
          response: {
            200: envelope(z.object({ token: z.string(), expires_in: z.number().int(), uploadUrl: z.string() })),
          },
        },
        preHandler: brand,
      },
      (req) => {
        const sent = tokenOf(req) ?? "";
        const session = tokens.open(sent) ?? sent;
        const ttl = 3600;
        return ok({
          token: tokens.seal(session, new Date(clock.now().getTime() + ttl * 1000)),
          expires_in: ttl,
          uploadUrl: "/api/media/uploads",
        });
      },
    );
  };
}
