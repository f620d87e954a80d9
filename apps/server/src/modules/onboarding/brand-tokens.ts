import { BRAND_CONTEXT_MENUS, CODE, type BrandTokenReply } from "@tessera/contracts";
import { withTx, type Db } from "../../db/tx";
import { audit } from "../../platform/audit";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import type { Clock } from "../../platform/clock";
import { newToken, tokenHash } from "../../platform/crypto/tokens";
import { AppError, conflict, notFound } from "../../platform/http/errors";
import { merchantRoles } from "../merchants";
import * as repo from "./brand-tokens.repo";

/** Brand tokens live at most two hours, and never beyond the provider's own session. */
export const BRAND_TOKEN_TTL_SECONDS = 2 * 3600;
/** Brand tokens are told apart from session tokens by this prefix. */
const PREFIX = "bt.";

export interface BrandTokenDeps {
  db: Db;
  clock: Clock;
}

/**
 * The token exchange of spec 01 §6: a service provider, signed in, asks for a token to act inside a
 * brand it serves. The token acts as the brand's merchant but only on the brand-context pages (the
 * guard's menus), is attributed to the provider's user, dies with the provider's session or the
 * binding, and the brand can revoke it at any time.
 */
export class BrandTokenService {
  constructor(private readonly deps: BrandTokenDeps) {}

  async exchange(actor: Actor, bindingId: number): Promise<BrandTokenReply> {
    const providerId = tenantOf(actor);
    // A brand token cannot mint another one, nor can a provider's sub-account.
    if (actor.menus !== null) throw new AppError(CODE.FORBIDDEN, "sub.ownerOnly");
    const now = this.deps.clock.now();
    const token = PREFIX + newToken();
    const reply = await withTx(this.deps.db, async (tx) => {
      const binding = await repo.bindingForProvider(tx, bindingId, providerId);
      if (!binding) throw notFound();
      // Only a merchant that bound the provider as its brand can be entered as a brand.
      if (binding.kind !== "brand") throw conflict("service.notBrand");
      const session = await repo.sessionExpiry(tx, actor.sessionId);
      if (!session) throw notFound();
      const expiresAt = new Date(
        Math.min(now.getTime() + BRAND_TOKEN_TTL_SECONDS * 1000, session.expires_at.getTime()),
      );
      await repo.insertBrandToken(tx, {
        bindingId,
        merchantId: binding.merchant_id,
        userId: actor.userId,
        sessionId: actor.sessionId,
        tokenHash: tokenHash(token),
        now,
        expiresAt,
      });
      await audit(tx, {
        actorUserId: actor.userId,
        action: "brandToken.issue",
        subjectType: "serviceBinding",
        subjectId: bindingId,
        detail: { merchantId: binding.merchant_id },
      });
      return {
        branderId: String(binding.merchant_id),
        expires_in: Math.floor((expiresAt.getTime() - now.getTime()) / 1000),
      };
    });
    return { token, ...reply, menus: [...BRAND_CONTEXT_MENUS] };
  }

  /** The guard's second authenticator: an actor for a live brand token, else null. */
  async authenticate(token: string): Promise<Actor | null> {
    if (!token.startsWith(PREFIX)) return null;
    const row = await repo.findLiveBrandToken(this.deps.db, tokenHash(token), this.deps.clock.now());
    if (!row) return null;
    return {
      userId: row.user_id,
      sessionId: row.session_id,
      kind: "merchant",
      email: row.email,
      merchantId: row.merchant_id,
      roles: merchantRoles(row.roles),
      version: row.version,
      menus: [...BRAND_CONTEXT_MENUS],
      scope: "brand",
    };
  }

  /** The brand revokes every brand token issued for it (its main account only). */
  async revokeAll(actor: Actor): Promise<number> {
    const merchantId = tenantOf(actor);
    if (actor.menus !== null) throw new AppError(CODE.FORBIDDEN, "sub.ownerOnly");
    const now = this.deps.clock.now();
    return withTx(this.deps.db, async (tx) => {
      const n = await repo.revokeBrandTokens(tx, merchantId, now);
      await audit(tx, {
        actorUserId: actor.userId,
        action: "brandToken.revokeAll",
        subjectType: "merchant",
        subjectId: merchantId,
        detail: { revoked: n },
      });
      return n;
    });
  }
}
