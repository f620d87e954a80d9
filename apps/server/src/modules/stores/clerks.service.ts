import { CODE, type Clerk } from "@tessera/contracts";
import { withTx } from "../../db/tx";
import { audit } from "../../platform/audit";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import { AppError } from "../../platform/http/errors";
import * as repo from "./clerks.repo";
import { iso } from "./presenter";
import { findStore } from "./repo";
import type { StoresDeps } from "./service";

const storeNotFound = () => new AppError(CODE.NOT_FOUND, "stores.notFound");

/** Clerks: the brand's sub-accounts bound to one of its stores, who redeem there. */
export class ClerksService {
  constructor(private readonly deps: StoresDeps) {}

  async list(actor: Actor, storeId: number): Promise<Clerk[]> {
    const brander = tenantOf(actor);
    const s = await findStore(this.deps.db, brander, storeId);
    if (!s) throw storeNotFound();
    const rows = await repo.clerksOf(this.deps.db, storeId);
    return rows.map((r) => ({
      passportId: String(r.user_id),
      email: r.email,
      name: r.display_name ?? "",
      storeId: String(s.id),
      storeName: s.name,
      createdAt: iso(r.created_at),
    }));
  }

  /** Binds a sub-account to a store as its clerk (moving it from another store of the brand). */
  async bind(actor: Actor, storeId: number, passportId: number): Promise<Clerk[]> {
    const brander = tenantOf(actor);
    if (!(await findStore(this.deps.db, brander, storeId))) throw storeNotFound();
    if (!(await this.deps.subAccountOf(brander, passportId))) throw new AppError(CODE.FORBIDDEN, "stores.clerkNotSub");
    await withTx(this.deps.db, async (tx) => {
      await repo.bindClerk(tx, brander, storeId, passportId);
      await audit(tx, {
        actorUserId: actor.userId,
        action: "store.bindClerk",
        subjectType: "store",
        subjectId: storeId,
        detail: { passportId },
      });
    });
    return this.list(actor, storeId);
  }

  async unbind(actor: Actor, storeId: number, passportId: number): Promise<Clerk[]> {
    const brander = tenantOf(actor);
    if (!(await findStore(this.deps.db, brander, storeId))) throw storeNotFound();
    if (!(await repo.unbindClerk(this.deps.db, brander, storeId, passportId))) {
      throw new AppError(CODE.NOT_FOUND, "stores.clerkNotFound");
    }
    return this.list(actor, storeId);
  }

  /** The store a user works at (a clerk), if any. */
  async storeOfClerk(userId: number) {
    return repo.storeOfClerk(this.deps.db, userId);
  }
}
