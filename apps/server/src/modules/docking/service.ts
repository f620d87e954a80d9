import {
  CODE,
  type BrandAuth,
  type BrandAuthReq,
  type Docking,
  type DockingQuery,
  type Page,
} from "@tessera/contracts";
import { isUniqueViolation, withTx, type Db, type Tx } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { audit } from "../../platform/audit";
import type { Clock } from "../../platform/clock";
import { AppError, conflict, forbidden, invalid } from "../../platform/http/errors";
import { getMerchant, merchantOfActor, type MerchantRow } from "../merchants";
import * as repo from "./repo";
import { WhitelistService } from "./whitelists.service";
import { pageWindow } from "../../db/paginate";

/** What docking needs of the accounts module: the agreement-signing SMS codes. */
export interface SigningCodes {
  check(phone: string, code: string): Promise<number>;
  consume(tx: Tx, codeId: number, now: Date): Promise<boolean>;
}

export interface DockingDeps {
  db: Db;
  clock: Clock;
  codes: SigningCodes;
}

const dockingNotFound = () => new AppError(CODE.NOT_FOUND, "docking.notFound");

/**
 * Who may buy from whom (spec 01 §3): docking (a purchaser applies to a supplier; the supplier approves;
 * both sign the agreement with an SMS code), the brand owner's authorisations, and the supplier's
 * whitelists. Purchasing asks the same question through `mayBuyCondition`.
 */
export class DockingService {
  /** Supplier whitelists: the third way (after docking and brand authorisation) a purchaser may buy. */
  readonly whitelists: WhitelistService;

  constructor(private readonly deps: DockingDeps) {
    this.whitelists = new WhitelistService({ db: deps.db, clock: deps.clock });
  }

  private merchantOf(actor: Actor): Promise<MerchantRow> {
    return merchantOfActor(this.deps.db, actor);
  }

  /* ---------- docking ---------- */

  async apply(actor: Actor, supplierId: string): Promise<Docking> {
    const purchaser = await this.merchantOf(actor);
    const id = Number(supplierId);
    if (id === purchaser.id) throw invalid("docking.self", "supplierId");
    const supplier = await getMerchant(this.deps.db, id);
    if (!supplier || !supplier.roles.includes("business")) throw invalid("docking.supplierNotFound", "supplierId");
    // Required states (spec 01 §6): both sides real-name verified; and one market, one settlement currency
    // (international USD/HKD and domestic CNY never dock: see "Markets" in docs/architecture.md).
    if (purchaser.version !== supplier.version || purchaser.currency !== supplier.currency) {
      throw conflict("docking.crossMarket", "supplierId");
    }
    if (purchaser.real_name_state !== "verified") throw conflict("docking.realNameRequired");
    if (supplier.real_name_state !== "verified") throw conflict("docking.counterpartNotVerified", "supplierId");
    try {
      const dockingId = await withTx(this.deps.db, async (tx) => {
        const created = await repo.insertDocking(tx, {
          purchaserId: purchaser.id,
          supplierId: supplier.id,
          createdBy: actor.userId,
        });
        await audit(tx, {
          actorUserId: actor.userId,
          action: "docking.apply",
          subjectType: "docking",
          subjectId: created,
          detail: { supplierId: supplier.id },
        });
        return created;
      });
      return await this.presentDocking(dockingId, purchaser.id);
    } catch (err) {
      if (isUniqueViolation(err, "dockings_live_pair")) throw conflict("docking.exists", "supplierId");
      throw err;
    }
  }

  async dockings(actor: Actor, q: DockingQuery): Promise<Page<Docking>> {
    const me = await this.merchantOf(actor);
    const { rows, total } = await repo.dockingPage(this.deps.db, {
      merchantId: me.id,
      side: q.side,
      status: q.status,
      ...pageWindow(q),
    });
    const list: Docking[] = [];
    for (const r of rows) list.push(await this.present(r, me.id));
    return { list, total, page: q.page, pageSize: q.pageSize };
  }

  /** The supplier approves or rejects an application under review. */
  async review(
    actor: Actor,
    id: number,
    decision: { approve: boolean; reason?: string | undefined },
  ): Promise<Docking> {
    const me = await this.merchantOf(actor);
    if (!decision.approve && !decision.reason) throw invalid("docking.rejectReasonEmpty", "reason");
    await withTx(this.deps.db, async (tx) => {
      const d = await repo.lockDockingOf(tx, id, me.id);
      if (!d || d.supplier_merchant_id !== me.id) throw dockingNotFound();
      if (d.status !== "pending_review") throw conflict("docking.wrongState");
      if (decision.approve) await this.requireDockable(tx, me, d.purchaser_merchant_id);
      await repo.updateDocking(tx, id, {
        status: decision.approve ? "approved" : "rejected",
        rejectReason: decision.approve ? null : (decision.reason ?? null),
        decidedAt: this.deps.clock.now(),
      });
      await audit(tx, {
        actorUserId: actor.userId,
        action: `docking.${decision.approve ? "approve" : "reject"}`,
        subjectType: "docking",
        subjectId: id,
      });
    });
    return this.presentDocking(id, me.id);
  }

  /** `POST abutment/brander/confirm/{id}`: one side signs the docking agreement with an SMS code. */
  async sign(actor: Actor, id: number, req: { phone: string; verifyCode: string }): Promise<Docking> {
    // The docking agreement binds the company: its main account signs, not a sub-account given the docking
    // page (issue 38 item 8). Refused before the code is checked, so the code stays usable.
    if (actor.menus !== null) throw forbidden();
    const me = await this.merchantOf(actor);
    const codeId = await this.deps.codes.check(req.phone, req.verifyCode);
    const now = this.deps.clock.now();
    await withTx(this.deps.db, async (tx) => {
      const d = await repo.lockDockingOf(tx, id, me.id);
      if (!d) throw dockingNotFound();
      if (d.status !== "approved") throw conflict("docking.wrongState");
      await this.requireDockable(
        tx,
        me,
        d.purchaser_merchant_id === me.id ? d.supplier_merchant_id : d.purchaser_merchant_id,
      );
      if (!(await this.deps.codes.consume(tx, codeId, now))) {
        throw new AppError(CODE.CODE_INVALID, "code.invalid", {}, "verifyCode");
      }
      const signature = { at: now, by: actor.userId, phone: req.phone };
      await repo.updateDocking(
        tx,
        id,
        d.purchaser_merchant_id === me.id ? { purchaserSigned: signature } : { supplierSigned: signature },
      );
      await audit(tx, { actorUserId: actor.userId, action: "docking.sign", subjectType: "docking", subjectId: id });
    });
    return this.presentDocking(id, me.id);
  }

  /** `DELETE apply/{id}`: either side ends a docking (or withdraws an application). */
  async remove(actor: Actor, id: number): Promise<void> {
    const me = await this.merchantOf(actor);
    await withTx(this.deps.db, async (tx) => {
      const d = await repo.lockDockingOf(tx, id, me.id);
      if (!d) throw dockingNotFound();
      if (d.status === "cancelled" || d.status === "rejected") throw conflict("docking.wrongState");
      await repo.updateDocking(tx, id, { status: "cancelled", decidedAt: this.deps.clock.now() });
      await audit(tx, { actorUserId: actor.userId, action: "docking.cancel", subjectType: "docking", subjectId: id });
    });
  }

  /**
   * The required states (spec 01 §6) as a docking is approved or signed: this side and the other verified
   * (a verification may have expired since the application), and both of one market.
   */
  private async requireDockable(tx: Tx, me: MerchantRow, otherId: number): Promise<void> {
    if (me.real_name_state !== "verified") throw conflict("docking.realNameRequired");
    const other = await getMerchant(tx, otherId);
    if (!other || other.version !== me.version || other.currency !== me.currency) throw conflict("docking.crossMarket");
    if (other.real_name_state !== "verified") throw conflict("docking.counterpartNotVerified");
  }

  private async presentDocking(id: number, merchantId: number): Promise<Docking> {
    const row = await repo.findDocking(this.deps.db, id);
    if (!row) throw dockingNotFound();
    return this.present(row, merchantId);
  }

  private async present(r: repo.DockingRow, merchantId: number): Promise<Docking> {
    const side = r.purchaser_merchant_id === merchantId ? "purchaser" : "supplier";
    const counterpart = await getMerchant(
      this.deps.db,
      side === "purchaser" ? r.supplier_merchant_id : r.purchaser_merchant_id,
    );
    const purchaserSigned = r.purchaser_signed_at !== null;
    const supplierSigned = r.supplier_signed_at !== null;
    return {
      id: String(r.id),
      side,
      counterpartId: String(counterpart?.id ?? ""),
      counterpartName: counterpart?.name ?? "",
      counterpartRealNameState: counterpart?.real_name_state ?? "not_verified",
      status: r.status,
      docked: r.status === "approved" && purchaserSigned && supplierSigned,
      purchaserSigned,
      supplierSigned,
      rejectReason: r.reject_reason,
      createdAt: new Date(r.created_at).toISOString(),
    };
  }

  /* ---------- brand authorisation ---------- */

  /** The brand owner authorises a purchaser (to buy without a docking) or a provider (to sell it). */
  async authorise(actor: Actor, req: BrandAuthReq): Promise<BrandAuth> {
    const brand = await this.merchantOf(actor);
    const granteeId = Number(req.granteeId);
    if (granteeId === brand.id) throw invalid("brandAuth.self", "granteeId");
    const grantee = await getMerchant(this.deps.db, granteeId);
    if (!grantee) throw invalid("brandAuth.granteeNotFound", "granteeId");
    if (req.kind === "provider" && !grantee.roles.includes("providers")) {
      throw invalid("brandAuth.notProvider", "granteeId");
    }
    try {
      const id = await withTx(this.deps.db, async (tx) => {
        const created = await repo.insertBrandAuth(tx, {
          brandId: brand.id,
          granteeId,
          kind: req.kind,
          remark: req.remark ?? "",
          validUntil: req.validUntil ?? null,
          createdBy: actor.userId,
        });
        await audit(tx, {
          actorUserId: actor.userId,
          action: "brandAuth.create",
          subjectType: "brand_auth",
          subjectId: created,
          detail: { granteeId, kind: req.kind },
        });
        return created;
      });
      return await this.presentBrandAuth(id);
    } catch (err) {
      if (isUniqueViolation(err, "brand_auths_live")) throw conflict("brandAuth.exists", "granteeId");
      throw err;
    }
  }

  async updateAuth(
    actor: Actor,
    id: number,
    change: { remark?: string | undefined; validUntil?: string | null | undefined } | "revoke",
  ): Promise<BrandAuth> {
    if (change !== "revoke" && change.remark === undefined && change.validUntil === undefined) {
      throw invalid("validation.nothingToChange");
    }
    const brand = await this.merchantOf(actor);
    const done = await withTx(this.deps.db, async (tx) => {
      const ok = await repo.updateBrandAuth(
        tx,
        id,
        brand.id,
        change === "revoke" ? { revokedAt: this.deps.clock.now() } : change,
      );
      if (ok) {
        await audit(tx, {
          actorUserId: actor.userId,
          action: change === "revoke" ? "brandAuth.revoke" : "brandAuth.update",
          subjectType: "brand_auth",
          subjectId: id,
        });
      }
      return ok;
    });
    if (!done) throw new AppError(CODE.NOT_FOUND, "brandAuth.notFound");
    return this.presentBrandAuth(id);
  }

  async brandAuths(
    actor: Actor,
    q: { page: number; pageSize: number; side: "brand" | "grantee" },
  ): Promise<Page<BrandAuth>> {
    const me = await this.merchantOf(actor);
    const { ids, total } = await repo.brandAuthPage(this.deps.db, {
      merchantId: me.id,
      side: q.side,
      ...pageWindow(q),
    });
    const list: BrandAuth[] = [];
    for (const id of ids) list.push(await this.presentBrandAuth(id));
    return { list, total, page: q.page, pageSize: q.pageSize };
  }

  private async presentBrandAuth(id: number): Promise<BrandAuth> {
    const r = await repo.findBrandAuth(this.deps.db, id);
    if (!r) throw new AppError(CODE.NOT_FOUND, "brandAuth.notFound");
    const brand = await getMerchant(this.deps.db, r.brand_merchant_id);
    const grantee = await getMerchant(this.deps.db, r.grantee_merchant_id);
    return {
      id: String(r.id),
      brandId: String(r.brand_merchant_id),
      brandName: brand?.name ?? "",
      granteeId: String(r.grantee_merchant_id),
      granteeName: grantee?.name ?? "",
      kind: r.grantee_kind,
      remark: r.remark,
      validUntil: r.valid_until,
      active: r.active,
      createdAt: new Date(r.created_at).toISOString(),
    };
  }
}
