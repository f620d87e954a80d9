import type { ApiFail, ApiResult } from "./envelope";

/**
 * What a react-query query throws when a call did not succeed. The HTTP layer has already shown the
 * toast (unless the call opted out); the error carries the reply for the page to render.
 */
export class ApiError extends Error {
  constructor(readonly result: ApiFail | null) {
    super(result?.msg ?? "silent");
    this.name = "ApiError";
  }
}

/** The data of a successful result, else throws ApiError (a silent -10000 reply throws with null). */
export function unwrap<T>(result: ApiResult<T> | undefined): T {
  if (result?.ok) return result.data;
  throw new ApiError(result ?? null);
}
