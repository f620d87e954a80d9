import { randomBytes } from "node:crypto";
import { CODE, type Page, type PayCode } from "@tessera/contracts";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import { AppError, conflict } from "../../platform/http/errors";
import { moneyText } from "../../platform/money-text";
import { getMerchant } from "../merchants";
import { currentApplication } from "./applications.repo";
import * as repo from "./codes.repo";
import { presentCode, type AppRow } from "./presenter";
import type { CollectionDeps } from "./service";
import { pageWindow } from "../../db/paginate";

/** Collection codes per account (the merchant's own or a sub-account's), optionally bound to a store. */
export class CodesService {
  constructor(private readonly deps: CollectionDeps) {}

  private now(): Date {
    return this.deps.clock.now();
  }

  private async finished(merchantId: number): Promise<AppRow> {
    const cur = await currentApplication(this.deps.db, merchantId);
    if (!cur || cur.state !== "FINISHED") throw conflict("collection.notFinished");
    return cur;
  }

  /** The account a code belongs to: the caller's own, or one of the merchant's sub-accounts. */
  private async checkPassport(actor: Actor, merchantId: number, passportId: number): Promise<void> {
    if (passportId === actor.userId) return;
    if (!(await this.deps.isSubAccount(merchantId, passportId))) {
      throw new AppError(CODE.NOT_FOUND, "collection.passportNotYours");
    }
  }

  async codes(
    actor: Actor,
    passportId: number,
    q: { page: number; pageSize: number },
    origin: string,
  ): Promise<Page<PayCode>> {
    const merchantId = tenantOf(actor);
    await this.checkPassport(actor, merchantId, passportId);
    const { total, rows } = await repo.codePage(
      this.deps.db,
      merchantId,
      { column: "passport_id", id: passportId },
      pageWindow(q),
    );
    return { list: rows.map((r) => presentCode(r, origin)), total, page: q.page, pageSize: q.pageSize };
  }

  /** The live collection codes bound to one of the merchant's stores, of any of its accounts. */
  async storeCodes(
    actor: Actor,
    storeId: number,
    q: { page: number; pageSize: number },
    origin: string,
  ): Promise<Page<PayCode>> {
    const merchantId = tenantOf(actor);
    if (!(await this.deps.ownStore(merchantId, storeId))) throw new AppError(CODE.NOT_FOUND, "stores.notFound");
    const { total, rows } = await repo.codePage(
      this.deps.db,
      merchantId,
      { column: "store_id", id: storeId },
      pageWindow(q),
    );
    return { list: rows.map((r) => presentCode(r, origin)), total, page: q.page, pageSize: q.pageSize };
  }

  async createCode(
    actor: Actor,
    passportId: number,
    req: { name: string; storeId: string | null; amount: number | null },
    origin: string,
  ): Promise<PayCode> {
    const merchantId = tenantOf(actor);
    await this.checkPassport(actor, merchantId, passportId);
    const account = await this.finished(merchantId);
    const currency = (await getMerchant(this.deps.db, merchantId))?.currency ?? "CNY";
    if (req.amount !== null && req.amount > account.per_payment_limit) {
      throw new AppError(
        CODE.INVALID_PARAMETER,
        "collection.overLimit",
        { limit: moneyText(account.per_payment_limit, currency) },
        "amount",
      );
    }
    if (req.storeId !== null && !(await this.deps.ownStore(merchantId, Number(req.storeId)))) {
      throw new AppError(CODE.NOT_FOUND, "stores.notFound");
    }
    const row = await repo.insertCode(this.deps.db, {
      merchant_id: merchantId,
      passport_id: passportId,
      store_id: req.storeId === null ? null : Number(req.storeId),
      name: req.name,
      amount: req.amount,
      token: randomBytes(12).toString("base64url"),
      created_at: this.now(),
    });
    return presentCode(row, origin);
  }

  async code(actor: Actor, passportId: number, id: number, origin: string): Promise<PayCode> {
    const r = await repo.codeOf(this.deps.db, tenantOf(actor), passportId, id);
    if (!r) throw new AppError(CODE.NOT_FOUND, "collection.codeNotFound");
    return presentCode(r, origin);
  }

  async deleteCode(actor: Actor, passportId: number, id: number): Promise<{ deleted: true }> {
    const merchantId = tenantOf(actor);
    if (!(await repo.retireCode(this.deps.db, merchantId, passportId, id, this.now()))) {
      throw new AppError(CODE.NOT_FOUND, "collection.codeNotFound");
    }
    return { deleted: true };
  }
}
