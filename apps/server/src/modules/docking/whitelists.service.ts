import { CODE, type Page, type WhitelistEntry, type WhitelistQuery, type WhitelistReq } from "@tessera/contracts";
import { isUniqueViolation, withTx, type Db } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { audit } from "../../platform/audit";
import type { Clock } from "../../platform/clock";
import { AppError, conflict, invalid } from "../../platform/http/errors";
import { goodsForPurchase, goodsNames } from "../catalog";
import { getMerchant, merchantOfActor } from "../merchants";
import { dockedPair } from "./repo";
import * as repo from "./whitelists.repo";
import { pageWindow } from "../../db/paginate";

const notFound = () => new AppError(CODE.NOT_FOUND, "whitelist.notFound");

/**
 * Supplier whitelists (business/VendorWhiteList, business/PurchaseWhiteList). Spec 01 names the two pages
 * only; our reading (a guess, in the GLOSSARY's spirit): both list purchasers that the supplier lets buy
 * without a docking. The vendor whitelist covers every goods of the supplier (the vendor); the purchase
 * whitelist covers one goods. A purchaser may buy a supplier's goods when docked with it, authorised by
 * the brand, or whitelisted (vendor-wide or for that goods). Removing an entry stops new orders at once;
 * orders already placed stay.
 */
export class WhitelistService {
  constructor(private readonly deps: { db: Db; clock: Clock }) {}

  async add(actor: Actor, req: WhitelistReq): Promise<WhitelistEntry> {
    const supplier = await merchantOfActor(this.deps.db, actor);
    const purchaserId = Number(req.purchaserId);
    if (purchaserId === supplier.id) throw invalid("whitelist.self", "purchaserId");
    const purchaser = await getMerchant(this.deps.db, purchaserId);
    if (!purchaser || !purchaser.roles.includes("sale")) throw invalid("whitelist.purchaserNotFound", "purchaserId");
    let goodsId: number | null = null;
    if (req.scope === "goods") {
      if (!req.goodsId) throw invalid("whitelist.goodsEmpty", "goodsId");
      const goods = await goodsForPurchase(this.deps.db, Number(req.goodsId));
      if (!goods || goods.supplierMerchantId !== supplier.id) throw invalid("whitelist.goodsNotYours", "goodsId");
      goodsId = goods.id;
    }
    try {
      const id = await withTx(this.deps.db, async (tx) => {
        const created = await repo.insertWhitelist(tx, {
          supplierId: supplier.id,
          purchaserId,
          scope: req.scope,
          goodsId,
          remark: req.remark ?? "",
          createdBy: actor.userId,
        });
        await audit(tx, {
          actorUserId: actor.userId,
          action: "whitelist.add",
          subjectType: "purchase_whitelist",
          subjectId: created,
          detail: { purchaserId, scope: req.scope, goodsId },
        });
        return created;
      });
      return await this.presentOne(id, supplier.id);
    } catch (err) {
      if (isUniqueViolation(err, "purchase_whitelists_live")) throw conflict("whitelist.exists", "purchaserId");
      throw err;
    }
  }

  async remove(actor: Actor, id: number): Promise<WhitelistEntry> {
    const supplier = await merchantOfActor(this.deps.db, actor);
    const done = await withTx(this.deps.db, async (tx) => {
      const ok = await repo.removeWhitelist(tx, id, supplier.id, actor.userId, this.deps.clock.now());
      if (ok) {
        await audit(tx, {
          actorUserId: actor.userId,
          action: "whitelist.remove",
          subjectType: "purchase_whitelist",
          subjectId: id,
        });
      }
      return ok;
    });
    if (!done) throw notFound();
    return this.presentOne(id, supplier.id);
  }

  async list(actor: Actor, q: WhitelistQuery): Promise<Page<WhitelistEntry>> {
    const supplier = await merchantOfActor(this.deps.db, actor);
    const { rows, total } = await repo.whitelistPage(this.deps.db, {
      supplierId: supplier.id,
      scope: q.scope,
      purchaserId: q.purchaserId === undefined ? undefined : Number(q.purchaserId),
      goodsId: q.goodsId === undefined ? undefined : Number(q.goodsId),
      active: q.active === undefined ? undefined : q.active === "true",
      ...pageWindow(q),
    });
    const names = await goodsNames(this.deps.db, [
      ...new Set(rows.flatMap((r) => (r.goods_id === null ? [] : [r.goods_id]))),
    ]);
    const list: WhitelistEntry[] = [];
    for (const r of rows) list.push(await this.present(r, names));
    return { list, total, page: q.page, pageSize: q.pageSize };
  }

  private async presentOne(id: number, supplierId: number): Promise<WhitelistEntry> {
    const row = await repo.findWhitelist(this.deps.db, id, supplierId);
    if (!row) throw notFound();
    return this.present(row, await goodsNames(this.deps.db, row.goods_id === null ? [] : [row.goods_id]));
  }

  private async present(r: repo.WhitelistRow, names: Map<number, string>): Promise<WhitelistEntry> {
    const purchaser = await getMerchant(this.deps.db, r.purchaser_merchant_id);
    const docked = await dockedPair(this.deps.db, r.purchaser_merchant_id, r.supplier_merchant_id);
    return {
      id: String(r.id),
      scope: r.scope,
      purchaserId: String(r.purchaser_merchant_id),
      purchaserName: purchaser?.name ?? "",
      purchaserRealNameState: purchaser?.real_name_state ?? "not_verified",
      goodsId: r.goods_id === null ? null : String(r.goods_id),
      goodsName: r.goods_id === null ? null : (names.get(r.goods_id) ?? ""),
      remark: r.remark,
      active: r.removed_at === null,
      docked: docked !== undefined,
      createdAt: new Date(r.created_at).toISOString(),
      removedAt: r.removed_at ? new Date(r.removed_at).toISOString() : null,
    };
  }
}
