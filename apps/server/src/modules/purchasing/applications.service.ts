import { CODE, type ApplicationDecisionReq, type Page, type PurchaseApplication } from "@tessera/contracts";
import { isUniqueViolation, withTx } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { audit } from "../../platform/audit";
import { AppError, conflict, invalid } from "../../platform/http/errors";
import { goodsForPurchase } from "../catalog";
import { getMerchant, merchantOfActor, type MerchantRow } from "../merchants";
import * as applicationsRepo from "./applications.repo";
import type { PurchasingDeps } from "./service";
import { pageWindow } from "../../db/paginate";

/**
 * Purchase applications: a purchaser applies to buy a supplier's goods; the supplier approves with its price
 * or rejects.
 */
export class ApplicationsService {
  constructor(private readonly deps: PurchasingDeps) {}

  private merchantOf(actor: Actor): Promise<MerchantRow> {
    return merchantOfActor(this.deps.db, actor);
  }

  /** A purchaser applies to buy a supplier's goods; the supplier reviews and sets its price. */
  async applyToPurchase(
    actor: Actor,
    req: { goodsId: string; remark?: string | undefined },
  ): Promise<PurchaseApplication> {
    const purchaser = await this.merchantOf(actor);
    if (purchaser.real_name_state !== "verified") throw conflict("order.realNameRequired");
    const goods = await goodsForPurchase(this.deps.db, Number(req.goodsId));
    if (!goods || !goods.available || goods.supplierMerchantId === purchaser.id) {
      throw conflict("order.goodsUnavailable", "goodsId");
    }
    // One market, one currency: an international purchaser never applies for a domestic supplier's goods.
    if (goods.currency !== purchaser.currency) throw invalid("order.currencyMismatch", "goodsId");
    try {
      const id = await withTx(this.deps.db, async (tx) => {
        const created = await applicationsRepo.insertApplication(tx, {
          purchaserId: purchaser.id,
          supplierId: goods.supplierMerchantId,
          goodsId: goods.id,
          remark: req.remark ?? "",
          createdBy: actor.userId,
        });
        await audit(tx, {
          actorUserId: actor.userId,
          action: "application.create",
          subjectType: "purchase_application",
          subjectId: created,
        });
        return created;
      });
      return await this.presentApplication(id);
    } catch (err) {
      if (isUniqueViolation(err, "purchase_applications_live")) throw conflict("application.exists", "goodsId");
      throw err;
    }
  }

  async decideApplication(actor: Actor, id: number, d: ApplicationDecisionReq): Promise<PurchaseApplication> {
    const supplier = await this.merchantOf(actor);
    const existing = await applicationsRepo.findApplication(this.deps.db, id);
    if (!existing || existing.supplier_merchant_id !== supplier.id) {
      throw new AppError(CODE.NOT_FOUND, "application.notFound");
    }
    const done = await withTx(this.deps.db, async (tx) => {
      const ok = await applicationsRepo.decideApplication(
        tx,
        id,
        supplier.id,
        d.approve
          ? {
              state: "purchasing",
              price: d.price,
              secretPrice: d.secretPrice ?? null,
              reason: null,
              at: this.deps.clock.now(),
            }
          : { state: "rejected", price: null, secretPrice: null, reason: d.reason, at: this.deps.clock.now() },
      );
      if (ok) {
        await audit(tx, {
          actorUserId: actor.userId,
          action: d.approve ? "application.approve" : "application.reject",
          subjectType: "purchase_application",
          subjectId: id,
        });
      }
      return ok;
    });
    if (!done) throw conflict("application.settled");
    return this.presentApplication(id);
  }

  async applications(
    actor: Actor,
    q: { page: number; pageSize: number; state?: "pending_review" | "rejected" | "purchasing" | undefined },
    side: "purchaser" | "supplier",
  ): Promise<Page<PurchaseApplication>> {
    const me = await this.merchantOf(actor);
    const { rows, total } = await applicationsRepo.applicationPage(this.deps.db, {
      ...(side === "purchaser" ? { purchaserId: me.id } : { supplierId: me.id }),
      state: q.state,
      ...pageWindow(q),
    });
    const list: PurchaseApplication[] = [];
    for (const r of rows) list.push(await this.presentApplication(r.id));
    return { list, total, page: q.page, pageSize: q.pageSize };
  }

  private async presentApplication(id: number): Promise<PurchaseApplication> {
    const r = await applicationsRepo.findApplication(this.deps.db, id);
    if (!r) throw new AppError(CODE.NOT_FOUND, "application.notFound");
    const goods = await goodsForPurchase(this.deps.db, r.goods_id);
    const purchaser = await getMerchant(this.deps.db, r.purchaser_merchant_id);
    const supplier = await getMerchant(this.deps.db, r.supplier_merchant_id);
    const currency = goods?.currency ?? supplier?.currency ?? "CNY";
    return {
      id: String(r.id),
      purchaserId: String(r.purchaser_merchant_id),
      purchaserName: purchaser?.name ?? "",
      supplierId: String(r.supplier_merchant_id),
      supplierName: supplier?.name ?? "",
      goodsId: String(r.goods_id),
      goodsName: goods?.name ?? "",
      listPrice: { amount: goods?.price ?? 0, currency },
      fromStock: goods?.fromStock ?? true,
      perOrderMax: goods?.perOrderMax ?? 1,
      state: r.state,
      price: r.price === null ? null : { amount: r.price, currency },
      secretPrice: r.secret_price === null ? null : { amount: r.secret_price, currency },
      remark: r.remark,
      rejectReason: r.reject_reason,
      createdAt: new Date(r.created_at).toISOString(),
    };
  }
}
