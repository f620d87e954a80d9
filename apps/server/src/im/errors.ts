import { IM_ERRORS, imErrorText, type ImErrorKey } from "@tessera/contracts";

/**
 * An IM REST error: replied as `{error, exception?, timestamp, duration, error_description, error_code?}`
 * with the status of its IM_ERRORS entry, which is what the published client maps (spec 03 §8).
 */
export class ImError extends Error {
  readonly status: number;
  readonly error: string;
  readonly description: string;
  readonly code: number | undefined;
  readonly exception: string | undefined;

  constructor(
    readonly key: ImErrorKey,
    readonly params: Record<string, string | number> = {},
    /** A specific description and error code (group member attributes use several codes on one status). */
    override?: { description: string; code: number },
  ) {
    const def = IM_ERRORS[key];
    const description = override?.description ?? imErrorText(def.description, params);
    super(description);
    this.name = "ImError";
    this.status = def.status;
    this.error = def.error;
    this.description = description;
    this.code = override?.code ?? ("code" in def ? def.code : undefined);
    this.exception = "exception" in def ? def.exception : undefined;
  }

  body(now: number): Record<string, unknown> {
    return {
      error: this.error,
      ...(this.exception && { exception: this.exception }),
      timestamp: now,
      duration: 0,
      error_description: this.description,
      ...(this.code !== undefined && { error_code: this.code }),
    };
  }
}

export const imError = (key: ImErrorKey, params?: Record<string, string | number>) => new ImError(key, params);
export const invalidParam = (field: string) => new ImError("invalidParameter", { field });
export const denied = (reason: string) => new ImError("permissionDenied", { reason });

/**
 * The client maps "are not members of this group" by URL: group not joined (602) only when the URL
 * contains "chatgroups", chat room not joined (702) otherwise. Group calls under other paths (threads,
 * member attributes, roaming, the legacy group block) refuse with error code 60003 instead, which the
 * client maps to 602 whatever the URL.
 */
export function asGroupRefusal(err: unknown): unknown {
  return err instanceof ImError && err.key === "notMember" ? new ImError("groupNotJoined", err.params) : err;
}
