import type { MerchantRole, UserKind, Version } from "@tessera/contracts";

/** Who is making a request, resolved from the `x-auth-token` header. */
export interface Actor {
  userId: number;
  sessionId: number;
  kind: UserKind;
  email: string;
  /** The tenant: set for merchant staff, null for operators and customers. */
  merchantId: number | null;
  roles: readonly MerchantRole[];
  version: Version;
  /**
   * The pages (menu keys such as "sale/ApiSecurity") a sub-account was given; null for a merchant's
   * owner and for operators, who reach every page of their areas.
   */
  menus: readonly string[] | null;
  /**
   * "brand" for a service provider acting inside a brand's context with a brand token: such an actor
   * reaches only routes that name one of its pages, never the brand's other calls.
   */
  scope?: "brand";
}

/** Resolves a token to an actor, or null when it is unknown, expired or revoked. */
export type Authenticator = (token: string) => Promise<Actor | null>;
