import { CODE } from "@tessera/contracts";
import { AppError } from "../../http/errors";

/** A vendor's answer that says the number got too many messages (its own per-phone frequency limits). */
export function isVendorFrequencyLimit(vendorCode: string): boolean {
  return (
    /^isv\.(BUSINESS|DAY|MINUTE|HOUR)_LIMIT_CONTROL$/.test(vendorCode) ||
    vendorCode.startsWith("LimitExceeded.PhoneNumber") ||
    vendorCode === "LimitExceeded.DeliveryFrequencyLimit"
  );
}

/** What the user is told when a vendor did not take a message: too frequent, or could not be sent. */
export function smsFailure(vendorCode: string): AppError {
  return isVendorFrequencyLimit(vendorCode)
    ? new AppError(CODE.TOO_MANY_REQUESTS, "sms.tooFrequent")
    : new AppError(CODE.SEND_FAILED, "sms.sendFailed");
}

/** A phone number for logs: 138****5678. */
export function maskPhone(phone: string): string {
  return phone.length >= 7 ? `${phone.slice(0, 3)}****${phone.slice(-4)}` : "****";
}

/** The code of whatever an SDK threw: the vendor's error code, a network error's (ECONNREFUSED), or "unknown". */
export function thrownCode(err: unknown): string {
  if (err && typeof err === "object") {
    const e = err as { code?: unknown; cause?: unknown; message?: unknown };
    if (typeof e.code === "string" && e.code !== "") return e.code;
    if (e.cause) return thrownCode(e.cause);
  }
  return "unknown";
}

export function thrownMessage(err: unknown): string {
  return err instanceof Error ? err.message.slice(0, 300) : String(err).slice(0, 300);
}
