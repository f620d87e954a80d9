import { CODE, type District, type Page } from "@tessera/contracts";
import { isUniqueViolation, withTx } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import { AppError, conflict } from "../../platform/http/errors";
import * as repo from "./districts.repo";
import { iso } from "./presenter";
import { findDistrict } from "./repo";
import type { StoresDeps } from "./service";
import { pageWindow } from "../../db/paginate";

/** A brand's business districts (groups of its stores). */
export class DistrictsService {
  constructor(private readonly deps: StoresDeps) {}

  async list(
    actor: Actor,
    q: { page: number; pageSize: number; keyword?: string | undefined },
  ): Promise<Page<District>> {
    const brander = tenantOf(actor);
    const { total, rows } = await repo.districtPage(this.deps.db, brander, {
      keyword: q.keyword,
      ...pageWindow(q),
    });
    return {
      list: rows.map((r) => ({
        id: String(r.id),
        name: r.name,
        remark: r.remark,
        stores: Number(r.stores),
        createdAt: iso(r.created_at),
      })),
      total,
      page: q.page,
      pageSize: q.pageSize,
    };
  }

  async save(actor: Actor, id: number | null, req: { name: string; remark: string }): Promise<District> {
    const brander = tenantOf(actor);
    try {
      const savedId = await withTx(this.deps.db, async (tx) => {
        if (id === null) return repo.insertDistrict(tx, brander, req);
        if (!(await repo.updateDistrict(tx, brander, id, req))) {
          throw new AppError(CODE.NOT_FOUND, "stores.districtNotFound");
        }
        return id;
      });
      const page = await this.list(actor, { page: 1, pageSize: 1000, keyword: req.name });
      const d = page.list.find((x) => x.id === String(savedId));
      if (!d) throw new AppError(CODE.NOT_FOUND, "stores.districtNotFound");
      return d;
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict("stores.districtTaken", "name");
      throw err;
    }
  }

  async remove(actor: Actor, id: number): Promise<{ deleted: true }> {
    const brander = tenantOf(actor);
    return withTx(this.deps.db, async (tx) => {
      const d = await findDistrict(tx, brander, id);
      if (!d) throw new AppError(CODE.NOT_FOUND, "stores.districtNotFound");
      if (await repo.liveStoreIn(tx, id)) throw conflict("stores.districtInUse");
      await repo.deleteDistrict(tx, id);
      return { deleted: true as const };
    });
  }
}
