import { z } from "zod";

/** A route's OpenAPI security: the schemes (app.ts, components.securitySchemes) any one of which admits a call. */
export type RouteSecurity = ReadonlyArray<{ [scheme: string]: readonly string[] }>;

/** The merchant or operator session token (`authToken`): what nearly every route asks for. */
export const bearerSecurity: RouteSecurity = [{ authToken: [] }];
/** A card customer's session (`customerToken`, the one-card customer pages). */
export const customerSecurity: RouteSecurity = [{ customerToken: [] }];
/** A signed open-API request (`openApiSignature`). */
export const signatureSecurity: RouteSecurity = [{ openApiSignature: [] }];

/**
 * A module's documentation for its routes' schemas: its tag and, unless told otherwise, the session token.
 * `schema: { ...docs, summary, ... }` documents a guarded route; a public one takes the tag alone,
 * `schema: { tags: docs.tags, summary, ... }`.
 */
export function routeDocs(tag: string, security: RouteSecurity = bearerSecurity) {
  return { tags: [tag], security };
}

/** A database id in the path or a query: a positive integer within the safe range. */
export const pathId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
/** The `/:id` params of most routes. */
export const idParam = z.object({ id: pathId });
