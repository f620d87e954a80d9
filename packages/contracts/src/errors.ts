import { z } from "zod";

import { CODE } from "./codes";

export { CODE, type Code } from "./codes";

export const HTTP_STATUS_OF_CODE: Record<number, number> = {
  [CODE.INVALID_PARAMETER]: 400,
  [CODE.FORBIDDEN]: 403,
  [CODE.NOT_FOUND]: 404,
  [CODE.CONFLICT]: 409,
  [CODE.TOO_MANY_REQUESTS]: 429,
  [CODE.LOGIN_FAILED]: 400,
  [CODE.ACCOUNT_LOCKED]: 429,
  [CODE.CODE_INVALID]: 400,
  [CODE.SEND_FAILED]: 502,
  [CODE.UNAUTHORIZED]: 401,
  [CODE.INTERNAL]: 500,
};

/** The success envelope for a given data schema. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ code: z.literal(1), data, msg: z.string() });
}

/** Error replies: `data.field` names the offending input field when there is one. */
export const errorEnvelope = z.object({
  code: z.number().int(),
  data: z.object({ field: z.string().optional() }).nullable(),
  msg: z.string(),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelope>;
export interface Envelope<T> {
  code: number;
  data: T;
  msg: string;
}
