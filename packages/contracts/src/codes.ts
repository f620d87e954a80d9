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
  /** A message (SMS) could not be sent through the provider; nothing was changed (issue 41). */
  SEND_FAILED: 1013,
  UNAUTHORIZED: 401,
  INTERNAL: 500,
} as const;
export type Code = (typeof CODE)[keyof typeof CODE];
