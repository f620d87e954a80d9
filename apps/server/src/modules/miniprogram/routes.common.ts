import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { routeDocs } from "../../platform/http/route";

/** What the module's route plugins share: the docs' tag and security, the key param, the caller's origin. */
export const docs = routeDocs("miniprogram");
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
