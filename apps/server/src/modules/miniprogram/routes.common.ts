import type { FastifyRequest } from "fastify";
import { z } from "zod";

/** What the module's route plugins share: the docs' tags and security, id and key params, the caller's origin. */
export const tags = ["miniprogram"];
export const security = [{ authToken: [] }];
export const id = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
export const idParam = z.object({ id });
export const keyParam = z.object({ key: z.string().regex(/^[0-9]+-[0-9]+-[A-Za-z0-9_-]{8,40}\.(?:png|jpg)$/) });
export const originOf = (req: FastifyRequest) => `${req.protocol}://${req.host}`;
/** Pages that run a mall config (sub-accounts need one of them). */
export const MP_PAGES = [
  "sale/EquityApplet",
  "international/sale/EquityApplet",
  "providers/TiktokApplet",
  "business/DockWechat",
  "sale/WechatOfficial",
];
export const done = z.object({ deleted: z.literal(true) });
