import { CODE, HTTP_STATUS_OF_CODE, type MessageKey } from "@tessera/contracts";

/**
 * An error a user can read: a reply code of the envelope, a message key rendered in the request's
 * language, and optionally the input field it concerns. Anything thrown that is not an AppError is a
 * bug and becomes a logged 500.
 */
export class AppError extends Error {
  constructor(
    readonly code: number,
    readonly messageKey: MessageKey,
    readonly params: Record<string, string | number> = {},
    readonly field?: string,
  ) {
    super(messageKey);
    this.name = "AppError";
  }
  get httpStatus(): number {
    return HTTP_STATUS_OF_CODE[this.code] ?? 400;
  }
}

export const invalid = (key: MessageKey, field?: string, params?: Record<string, string | number>) =>
  new AppError(CODE.INVALID_PARAMETER, key, params, field);
export const unauthorized = () => new AppError(CODE.UNAUTHORIZED, "auth.loginExpired");
export const forbidden = () => new AppError(CODE.FORBIDDEN, "auth.forbidden");
export const notFound = () => new AppError(CODE.NOT_FOUND, "error.notFound");
export const conflict = (key: MessageKey, field?: string) => new AppError(CODE.CONFLICT, key, {}, field);
export const tooMany = (key: MessageKey, params?: Record<string, string | number>) =>
  new AppError(CODE.TOO_MANY_REQUESTS, key, params);
