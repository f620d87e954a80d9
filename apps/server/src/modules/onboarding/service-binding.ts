import {
  CODE,
  type Page,
  type ProviderBrandsReq,
  type ServiceBinding,
  type ServiceBindReq,
  type ServiceKind,
} from "@tessera/contracts";
import { isUniqueViolation, withTx, type Db, type Executor } from "../../db/tx";
import { audit } from "../../platform/audit";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import type { Clock } from "../../platform/clock";
import { AppError, conflict, invalid, notFound } from "../../platform/http/errors";
import { getMerchant } from "../merchants";
import * as repo from "./service-binding.repo";
import * as tokensRepo from "./brand-tokens.repo";
import { pageWindow } from "../../db/paginate";

export interface ServiceBindingDeps {
  db: Db;
  clock: Clock;
}

function present(r: repo.BindingRow): ServiceBinding {
  return {
    id: String(r.id),
    merchantId: String(r.merchant_id),
    merchantName: r.merchant_name,
    merchantRealNameState: r.merchant_real_name_state,
    providerId: String(r.provider_id),
    providerName: r.provider_name,
    kind: r.kind,
    boundAt: r.bound_at.toISOString(),
  };
}

/** Whether a provider serves a merchant (an active binding): other modules' provider pages ask this. */
export function servesMerchant(db: Executor, providerId: number, merchantId: number): Promise<boolean> {
  return repo.serves(db, providerId, merchantId);
}

/**
 * Service-provider binding (sale/ServiceBind, business/ServiceBind; providers/BrandsList, VendorList):
 * a merchant binds one service provider, a merchant holding the providers role; the provider lists
 * the merchants it serves; either side may end the binding.
 */
export class ServiceBindingService {
  constructor(private readonly deps: ServiceBindingDeps) {}

  async current(actor: Actor, kind: ServiceKind): Promise<ServiceBinding | null> {
    const row = await repo.activeBindingOf(this.deps.db, tenantOf(actor), kind);
    return row ? present(row) : null;
  }

  async bind(actor: Actor, req: ServiceBindReq): Promise<ServiceBinding> {
    const merchantId = tenantOf(actor);
    if (actor.menus !== null) throw new AppError(CODE.FORBIDDEN, "sub.ownerOnly");
    const providerId = Number(req.providerId);
    if (providerId === merchantId) throw invalid("service.self", "providerId");
    const provider = await getMerchant(this.deps.db, providerId);
    if (!provider?.roles.includes("providers")) throw invalid("service.providerNotFound", "providerId");
    const now = this.deps.clock.now();
    try {
      await withTx(this.deps.db, async (tx) => {
        const id = await repo.insertBinding(tx, { merchantId, providerId, kind: req.kind, boundBy: actor.userId, now });
        await audit(tx, {
          actorUserId: actor.userId,
          action: "service.bind",
          subjectType: "serviceBinding",
          subjectId: id,
          detail: { providerId, kind: req.kind },
        });
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict("service.alreadyBound");
      throw err;
    }
    const row = await repo.activeBindingOf(this.deps.db, merchantId, req.kind);
    if (!row) throw notFound();
    return present(row);
  }

  /** `DELETE card-servicer/brander/{id}`: the merchant or its provider ends the binding. */
  async remove(actor: Actor, id: number): Promise<void> {
    const partyId = tenantOf(actor);
    if (actor.menus !== null) throw new AppError(CODE.FORBIDDEN, "sub.ownerOnly");
    const now = this.deps.clock.now();
    await withTx(this.deps.db, async (tx) => {
      const row = await repo.bindingOfParty(tx, id, partyId);
      if (!row || !(await repo.removeBinding(tx, id, actor.userId, now))) throw notFound();
      // The provider's brand tokens end with the binding.
      await tokensRepo.revokeBrandTokens(tx, row.merchant_id, now, id);
      await audit(tx, {
        actorUserId: actor.userId,
        action: "service.unbind",
        subjectType: "serviceBinding",
        subjectId: id,
        detail: { by: partyId },
      });
    });
  }

  /** The merchants a provider serves; only merchants holding the providers role have any. */
  async served(actor: Actor, q: ProviderBrandsReq): Promise<Page<ServiceBinding>> {
    const providerId = tenantOf(actor);
    const { total, rows } = await repo.servedBy(this.deps.db, providerId, {
      ...(q.keyword ? { keyword: q.keyword } : {}),
      ...(q.kind ? { kind: q.kind } : {}),
      ...pageWindow(q),
    });
    return { list: rows.map(present), total, page: q.page, pageSize: q.pageSize };
  }
}
