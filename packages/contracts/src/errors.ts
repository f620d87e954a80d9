import { z } from "zod";

/**
 * Reply codes of the back-office envelope `{code, data, msg}` (spec 01 §7, §8). 1 is success; every other
 * code is an error whose `msg` a user can read. The HTTP status is the one listed here.
 */
export const CODE = {
  OK: 1,
  /** The client shows no toast and returns nothing (spec 01 §8). */
  SILENT: -10000,
  INVALID_PARAMETER: 1001,
  FORBIDDEN: 1003,
  NOT_FOUND: 1004,
  CONFLICT: 1005,
  TOO_MANY_REQUESTS: 1006,
  /** Mall calls: customer login expired (spec 01 §8). */
  MALL_LOGIN_EXPIRED: 1007,
  LOGIN_FAILED: 1010,
  ACCOUNT_LOCKED: 1011,
  CODE_INVALID: 1012,
  UNAUTHORIZED: 401,
  INTERNAL: 500,
} as const;
export type Code = (typeof CODE)[keyof typeof CODE];

export const HTTP_STATUS_OF_CODE: Record<number, number> = {
  [CODE.INVALID_PARAMETER]: 400,
  [CODE.FORBIDDEN]: 403,
  [CODE.NOT_FOUND]: 404,
  [CODE.CONFLICT]: 409,
  [CODE.TOO_MANY_REQUESTS]: 429,
  [CODE.LOGIN_FAILED]: 400,
  [CODE.ACCOUNT_LOCKED]: 429,
  [CODE.CODE_INVALID]: 400,
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
