import { randomBytes } from "node:crypto";
import {
  CODE,
  renderMessage,
  STORE_LIMITS,
  storeReq,
  type Clerk,
  type District,
  type Lang,
  type MessageKey,
  type Page,
  type QrCode,
  type QrKind,
  type QrLanding,
  type Store,
  type StoreBatchReply,
  type StoreQuery,
  type StoreReject,
  type StoreReq,
} from "@tessera/contracts";
import { sql } from "kysely";
import { isUniqueViolation, withTx, type Db, type Tx } from "../../db/tx";
import { audit } from "../../platform/audit";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import type { Clock } from "../../platform/clock";
import { AppError, conflict, invalid } from "../../platform/http/errors";
import { getMerchant } from "../merchants";
import { regionText, validRegion } from "./regions";
import * as repo from "./repo";
import { BadStoreFile, readStoreFile } from "./sheets";

export interface StoresDeps {
  db: Db;
  clock: Clock;
  /** A sub-account (sub-passport) of the merchant, or undefined (accounts module). */
  subAccountOf: (
    merchantId: number,
    userId: number,
  ) => Promise<{ id: number; email: string; display_name: string | null } | undefined>;
  /** Suppliers a purchaser is docked with (purchasing module). */
  dockedSuppliers: (actor: Actor) => Promise<number[]>;
  /** Whether a service provider serves a merchant (onboarding module). */
  serves: (providerId: number, merchantId: number) => Promise<boolean>;
  /**
   * The stores' collection codes (collection module): which of the stores still have open payments (a
   * payment not final, a refund processing), and retiring their codes, both in the caller's transaction.
   */
  payments: {
    openAt: (tx: Tx, storeIds: number[]) => Promise<number[]>;
    retire: (tx: Tx, storeIds: number[], now: Date) => Promise<number>;
  };
  /** The app id of a merchant's released mall storefront, or null (miniprogram module). */
  releasedMall: (merchantId: number) => Promise<string | null>;
}

const storeNotFound = () => new AppError(CODE.NOT_FOUND, "stores.notFound");
const iso = (d: Date | string) => new Date(d).toISOString();

export function presentStore(r: repo.StoreRowView): Store {
  return {
    id: String(r.id),
    branderId: String(r.brander_id),
    branderName: r.brander_name,
    name: r.name,
    provinceCode: r.province_code,
    cityCode: r.city_code,
    countyCode: r.county_code,
    region: regionText(r.province_code, r.city_code, r.county_code),
    address: r.address,
    lng: r.lng,
    lat: r.lat,
    openingHours: r.opening_hours,
    contactName: r.contact_name,
    contactPhone: r.contact_phone,
    state: r.state,
    districtId: r.district_id === null ? null : String(r.district_id),
    districtName: r.district_name,
    clerks: Number(r.clerks),
    createdAt: iso(r.created_at),
  };
}

/** The reject reason of a row that failed the store schema (the first issue decides). */
function reasonOf(path: PropertyKey | undefined, message: string): string {
  if (message === "stores.textTooLong") return "tooLong";
  switch (path) {
    case "name":
      return "nameEmpty";
    case "provinceCode":
    case "cityCode":
    case "countyCode":
      return "region";
    case "address":
      return "address";
    case "contactPhone":
      return "phone";
    case "lng":
    case "lat":
      return "location";
    case "state":
      return "state";
    case "districtId":
      return "district";
    case undefined:
    default:
      return "tooLong";
  }
}

/**
 * Brand stores (spec 01 §7 branderStores): the brand's own stores, business districts, clerks
 * (sub-accounts bound to a store) and QR codes; the stores purchasers and service providers may see.
 */
export class StoresService {
  constructor(private readonly deps: StoresDeps) {}

  private now(): Date {
    return this.deps.clock.now();
  }

  /* ---------- stores ---------- */

  async list(actor: Actor, q: StoreQuery): Promise<Page<Store>> {
    return this.listOf([tenantOf(actor)], q);
  }

  private async listOf(branderIds: number[], q: StoreQuery): Promise<Page<Store>> {
    const { total, rows } = await repo.searchStores(
      this.deps.db,
      {
        branderIds,
        keyword: q.keyword,
        state: q.state,
        districtId: q.districtId ? Number(q.districtId) : undefined,
        provinceCode: q.provinceCode,
        cityCode: q.cityCode,
        countyCode: q.countyCode,
      },
      { limit: q.pageSize, offset: (q.page - 1) * q.pageSize },
    );
    return { list: rows.map(presentStore), total, page: q.page, pageSize: q.pageSize };
  }

  /** Every store of the brand in pages, for the export. */
  async *allStores(actor: Actor, q: Omit<StoreQuery, "page" | "pageSize">): AsyncGenerator<Store[]> {
    for (let page = 1; ; page++) {
      const p = await this.listOf([tenantOf(actor)], { ...q, page, pageSize: 1000 });
      if (p.list.length > 0) yield p.list;
      if (p.list.length < 1000) return;
    }
  }

  /** AssociatedStores: the stores of the suppliers a purchaser is docked with. */
  async associated(actor: Actor, q: StoreQuery & { branderId?: string | undefined }): Promise<Page<Store>> {
    tenantOf(actor);
    const docked = await this.deps.dockedSuppliers(actor);
    const ids = q.branderId ? docked.filter((d) => d === Number(q.branderId)) : docked;
    return this.listOf(ids, q);
  }

  /** VisitorStore: the stores of a brand the service provider serves. */
  async visiting(actor: Actor, q: StoreQuery & { branderId?: string | undefined }): Promise<Page<Store>> {
    const me = tenantOf(actor);
    if (!q.branderId) throw invalid("stores.brandRequired", "branderId");
    if (!(await this.deps.serves(me, Number(q.branderId)))) {
      throw new AppError(CODE.FORBIDDEN, "stores.providerNotServing");
    }
    return this.listOf([Number(q.branderId)], q);
  }

  private async storeView(branderId: number, id: number): Promise<Store> {
    const { rows } = await repo.searchStores(
      this.deps.db,
      { branderIds: [branderId], ids: [id] },
      { limit: 1, offset: 0 },
    );
    const row = rows[0];
    if (!row) throw storeNotFound();
    return presentStore(row);
  }

  private async checkStore(db: Db | Tx, branderId: number, req: StoreReq): Promise<void> {
    if (!validRegion(req.provinceCode, req.cityCode, req.countyCode)) {
      throw invalid("stores.regionInvalid", "countyCode");
    }
    if (req.districtId !== null && !(await repo.findDistrict(db, branderId, Number(req.districtId)))) {
      throw invalid("stores.districtNotFound", "districtId");
    }
  }

  private values(req: StoreReq) {
    return {
      name: req.name,
      province_code: req.provinceCode,
      city_code: req.cityCode,
      county_code: req.countyCode,
      address: req.address,
      lng: req.lng,
      lat: req.lat,
      opening_hours: req.openingHours,
      contact_name: req.contactName,
      contact_phone: req.contactPhone,
      state: req.state,
      district_id: req.districtId === null ? null : Number(req.districtId),
    };
  }

  async create(actor: Actor, req: StoreReq): Promise<Store> {
    const brander = tenantOf(actor);
    await this.checkStore(this.deps.db, brander, req);
    try {
      const id = await withTx(this.deps.db, async (tx) => {
        const row = await tx
          .insertInto("stores")
          .values({ brander_id: brander, ...this.values(req), updated_at: this.now() })
          .returning("id")
          .executeTakeFirstOrThrow();
        await audit(tx, { actorUserId: actor.userId, action: "store.create", subjectType: "store", subjectId: row.id });
        return row.id;
      });
      return await this.storeView(brander, id);
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict("stores.nameTaken", "name");
      throw err;
    }
  }

  async update(actor: Actor, id: number, req: StoreReq): Promise<Store> {
    const brander = tenantOf(actor);
    if (!(await repo.findStore(this.deps.db, brander, id))) throw storeNotFound();
    await this.checkStore(this.deps.db, brander, req);
    try {
      await withTx(this.deps.db, async (tx) => {
        const r = await tx
          .updateTable("stores")
          .set({ ...this.values(req), updated_at: this.now() })
          .where("id", "=", id)
          .where("brander_id", "=", brander)
          .where("deleted_at", "is", null)
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) !== 1) throw storeNotFound();
        await audit(tx, { actorUserId: actor.userId, action: "store.update", subjectType: "store", subjectId: id });
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict("stores.nameTaken", "name");
      throw err;
    }
    return this.storeView(brander, id);
  }

  /**
   * Deletes stores, all or none: each must be the brand's, have no unsettled redemption (a store with
   * redemptions waiting for the day's settlement is refused) and no open payment on its collection codes
   * (a payment not final or a refund processing). Clerks are unbound; QR and collection codes retired.
   */
  async remove(actor: Actor, storeIds: string[]): Promise<{ deleted: number }> {
    const brander = tenantOf(actor);
    const ids = [...new Set(storeIds.map(Number))];
    return withTx(this.deps.db, async (tx) => {
      const found = await repo.lockStores(tx, brander, ids);
      if (found.length !== ids.length) throw storeNotFound();
      if ((await repo.unsettledStores(tx, ids)).length > 0) throw conflict("stores.busy");
      if ((await this.deps.payments.openAt(tx, ids)).length > 0) throw conflict("stores.busyPayments");
      const now = this.now();
      await tx.updateTable("stores").set({ deleted_at: now, updated_at: now }).where("id", "in", ids).execute();
      await tx.deleteFrom("store_clerks").where("store_id", "in", ids).execute();
      await tx
        .updateTable("store_qr_codes")
        .set({ deleted_at: now })
        .where("store_id", "in", ids)
        .where("deleted_at", "is", null)
        .execute();
      const payCodes = await this.deps.payments.retire(tx, ids, now);
      await audit(tx, {
        actorUserId: actor.userId,
        action: "store.delete",
        subjectType: "store",
        subjectId: ids[0] ?? 0,
        detail: { storeIds: ids, payCodes },
      });
      return { deleted: ids.length };
    });
  }

  /**
   * Adds many stores (POST branderStores/batch, and the xlsx import): each row is checked like a single
   * add; good rows are added together, bad rows are reported with their row number and reason (and kept
   * as the import's reject report). `rowNos` are the file's row numbers (default: 1-based positions).
   */
  async batch(
    actor: Actor,
    rows: unknown[],
    lang: Lang,
    source: { fileName: string; rowNos?: number[]; examples?: number[] } = { fileName: "" },
  ): Promise<StoreBatchReply> {
    const brander = tenantOf(actor);
    const districts = await repo.districtIdsByName(this.deps.db, brander);
    const districtIds = new Set(districts.values());
    const taken = await repo.liveStoreNames(this.deps.db, brander);
    const rejects: (StoreReject & { key: string })[] = (source.examples ?? []).map((row) => ({
      row,
      name: "",
      key: "example",
      reason: renderMessage("stores.reject.example", lang),
    }));
    const good: ReturnType<StoresService["values"]>[] = [];
    rows.forEach((raw, i) => {
      const row = source.rowNos?.[i] ?? i + 1;
      const name =
        typeof raw === "object" && raw !== null && typeof (raw as { name?: unknown }).name === "string"
          ? (raw as { name: string }).name.slice(0, 60)
          : "";
      const reject = (key: string) =>
        rejects.push({ row, name, key, reason: renderMessage(`stores.reject.${key}` as MessageKey, lang) });
      const parsed = storeReq.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return reject(reasonOf(issue?.path[0], issue?.message ?? ""));
      }
      const s = parsed.data;
      if (!validRegion(s.provinceCode, s.cityCode, s.countyCode)) return reject("region");
      if (s.districtId !== null && !districtIds.has(Number(s.districtId))) return reject("district");
      if (taken.has(s.name)) return reject("nameTaken");
      taken.add(s.name);
      good.push(this.values(s));
    });
    const now = this.now();
    const importId = await withTx(this.deps.db, async (tx) => {
      for (let i = 0; i < good.length; i += 500) {
        await tx
          .insertInto("stores")
          .values(good.slice(i, i + 500).map((v) => ({ brander_id: brander, ...v, updated_at: now })))
          .execute();
      }
      const imp = await tx
        .insertInto("store_imports")
        .values({
          brander_id: brander,
          file_name: source.fileName,
          imported: good.length,
          rejected: rejects.length,
          created_by: actor.userId,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      for (let i = 0; i < rejects.length; i += 500) {
        await tx
          .insertInto("store_import_rejects")
          .values(
            rejects.slice(i, i + 500).map((r) => ({ import_id: imp.id, row_no: r.row, reason: r.key, name: r.name })),
          )
          .onConflict((oc) => oc.doNothing())
          .execute();
      }
      await audit(tx, {
        actorUserId: actor.userId,
        action: "store.batch",
        subjectType: "store_import",
        subjectId: imp.id,
        detail: { imported: good.length, rejected: rejects.length },
      });
      return imp.id;
    }).catch((err: unknown) => {
      // Another add took a name meanwhile: nothing was added.
      if (isUniqueViolation(err)) throw conflict("stores.nameTaken");
      throw err;
    });
    rejects.sort((a, b) => a.row - b.row);
    return {
      importId: String(importId),
      imported: good.length,
      rejected: rejects.length,
      rejects: rejects.slice(0, 100).map(({ row, name, reason }) => ({ row, name, reason })),
    };
  }

  /** The xlsx import: the file's rows through `batch`. */
  async importFile(actor: Actor, file: Buffer, fileName: string, lang: Lang): Promise<StoreBatchReply> {
    const districts = await repo.districtIdsByName(this.deps.db, tenantOf(actor));
    let read: Awaited<ReturnType<typeof readStoreFile>>;
    try {
      read = await readStoreFile(file, districts);
    } catch (err) {
      if (err instanceof BadStoreFile) throw invalid(err.key, "file");
      throw err;
    }
    if (read.rows.length === 0 && read.examples.length === 0) throw invalid("stores.batchEmpty", "file");
    if (read.rows.length > STORE_LIMITS.maxBatch) throw invalid("stores.batchTooLarge", "file");
    return this.batch(actor, read.rows, lang, { fileName, rowNos: read.rowNos, examples: read.examples });
  }

  /** The reject rows of one of the brand's imports, for the report. */
  async rejectsOf(actor: Actor, importId: number): Promise<{ row_no: number; reason: string; name: string }[]> {
    const brander = tenantOf(actor);
    const imp = await this.deps.db
      .selectFrom("store_imports")
      .select("id")
      .where("id", "=", importId)
      .where("brander_id", "=", brander)
      .executeTakeFirst();
    if (!imp) throw new AppError(CODE.NOT_FOUND, "error.notFound");
    return this.deps.db
      .selectFrom("store_import_rejects")
      .select(["row_no", "reason", "name"])
      .where("import_id", "=", importId)
      .orderBy("row_no")
      .execute();
  }

  /* ---------- business districts ---------- */

  async districts(
    actor: Actor,
    q: { page: number; pageSize: number; keyword?: string | undefined },
  ): Promise<Page<District>> {
    const brander = tenantOf(actor);
    let base = this.deps.db.selectFrom("store_districts as d").where("d.brander_id", "=", brander);
    if (q.keyword) base = base.where("d.name", "like", `%${q.keyword}%`);
    const total = await base.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirst();
    const rows = await base
      .select(["d.id", "d.name", "d.remark", "d.created_at"])
      .select(
        sql<string>`(SELECT count(*) FROM stores s WHERE s.district_id = d.id AND s.deleted_at IS NULL)`.as("stores"),
      )
      .orderBy("d.id", "desc")
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize)
      .execute();
    return {
      list: rows.map((r) => ({
        id: String(r.id),
        name: r.name,
        remark: r.remark,
        stores: Number(r.stores),
        createdAt: iso(r.created_at),
      })),
      total: Number(total?.n ?? 0),
      page: q.page,
      pageSize: q.pageSize,
    };
  }

  async saveDistrict(actor: Actor, id: number | null, req: { name: string; remark: string }): Promise<District> {
    const brander = tenantOf(actor);
    try {
      const savedId = await withTx(this.deps.db, async (tx) => {
        if (id === null) {
          const row = await tx
            .insertInto("store_districts")
            .values({ brander_id: brander, name: req.name, remark: req.remark })
            .returning("id")
            .executeTakeFirstOrThrow();
          return row.id;
        }
        const r = await tx
          .updateTable("store_districts")
          .set({ name: req.name, remark: req.remark })
          .where("id", "=", id)
          .where("brander_id", "=", brander)
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) !== 1) throw new AppError(CODE.NOT_FOUND, "stores.districtNotFound");
        return id;
      });
      const page = await this.districts(actor, { page: 1, pageSize: 1000, keyword: req.name });
      const d = page.list.find((x) => x.id === String(savedId));
      if (!d) throw new AppError(CODE.NOT_FOUND, "stores.districtNotFound");
      return d;
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict("stores.districtTaken", "name");
      throw err;
    }
  }

  async deleteDistrict(actor: Actor, id: number): Promise<{ deleted: true }> {
    const brander = tenantOf(actor);
    return withTx(this.deps.db, async (tx) => {
      const d = await repo.findDistrict(tx, brander, id);
      if (!d) throw new AppError(CODE.NOT_FOUND, "stores.districtNotFound");
      const used = await tx
        .selectFrom("stores")
        .select("id")
        .where("district_id", "=", id)
        .where("deleted_at", "is", null)
        .executeTakeFirst();
      if (used) throw conflict("stores.districtInUse");
      // Deleted stores keep no reference to it.
      await tx.updateTable("stores").set({ district_id: null }).where("district_id", "=", id).execute();
      await tx.deleteFrom("store_districts").where("id", "=", id).execute();
      return { deleted: true as const };
    });
  }

  /* ---------- clerks ---------- */

  async clerks(actor: Actor, storeId: number): Promise<Clerk[]> {
    const brander = tenantOf(actor);
    const s = await repo.findStore(this.deps.db, brander, storeId);
    if (!s) throw storeNotFound();
    const rows = await this.deps.db
      .selectFrom("store_clerks as c")
      .innerJoin("users as u", "u.id", "c.user_id")
      .select(["c.user_id", "c.created_at", "u.email", "u.display_name"])
      .where("c.store_id", "=", storeId)
      .orderBy("c.created_at")
      .execute();
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
  async bindClerk(actor: Actor, storeId: number, passportId: number): Promise<Clerk[]> {
    const brander = tenantOf(actor);
    if (!(await repo.findStore(this.deps.db, brander, storeId))) throw storeNotFound();
    if (!(await this.deps.subAccountOf(brander, passportId))) throw new AppError(CODE.FORBIDDEN, "stores.clerkNotSub");
    await withTx(this.deps.db, async (tx) => {
      await tx
        .insertInto("store_clerks")
        .values({ user_id: passportId, store_id: storeId, brander_id: brander })
        .onConflict((oc) => oc.column("user_id").doUpdateSet({ store_id: storeId, brander_id: brander }))
        .execute();
      await audit(tx, {
        actorUserId: actor.userId,
        action: "store.bindClerk",
        subjectType: "store",
        subjectId: storeId,
        detail: { passportId },
      });
    });
    return this.clerks(actor, storeId);
  }

  async unbindClerk(actor: Actor, storeId: number, passportId: number): Promise<Clerk[]> {
    const brander = tenantOf(actor);
    if (!(await repo.findStore(this.deps.db, brander, storeId))) throw storeNotFound();
    const r = await this.deps.db
      .deleteFrom("store_clerks")
      .where("user_id", "=", passportId)
      .where("store_id", "=", storeId)
      .where("brander_id", "=", brander)
      .executeTakeFirst();
    if (Number(r.numDeletedRows) !== 1) throw new AppError(CODE.NOT_FOUND, "stores.clerkNotFound");
    return this.clerks(actor, storeId);
  }

  /** One of the merchant's live stores, if it is one. */
  findStore(branderId: number, storeId: number) {
    return repo.findStore(this.deps.db, branderId, storeId);
  }

  /** The store a user works at (a clerk), if any. */
  async storeOfClerk(userId: number) {
    return this.deps.db
      .selectFrom("store_clerks as c")
      .innerJoin("stores as s", "s.id", "c.store_id")
      .selectAll("s")
      .where("c.user_id", "=", userId)
      .where("s.deleted_at", "is", null)
      .executeTakeFirst();
  }

  /* ---------- QR codes ---------- */

  private presentCode(
    r: {
      id: number;
      kind: QrKind;
      name: string;
      store_id: number | null;
      store_name: string | null;
      token: string;
      created_at: Date;
    },
    origin: string,
  ): QrCode {
    return {
      id: String(r.id),
      kind: r.kind,
      name: r.name,
      storeId: r.store_id === null ? null : String(r.store_id),
      storeName: r.store_name,
      url: `${origin}/qr/${r.token}`,
      createdAt: iso(r.created_at),
    };
  }

  private codesQuery(brander: number) {
    return this.deps.db
      .selectFrom("store_qr_codes as q")
      .leftJoin("stores as s", "s.id", "q.store_id")
      .select(["q.id", "q.kind", "q.name", "q.store_id", "s.name as store_name", "q.token", "q.created_at"])
      .where("q.brander_id", "=", brander)
      .where("q.deleted_at", "is", null);
  }

  async codes(
    actor: Actor,
    q: { page: number; pageSize: number; kind?: QrKind | undefined; storeId?: string | undefined },
    origin: string,
  ): Promise<Page<QrCode>> {
    const brander = tenantOf(actor);
    let base = this.codesQuery(brander);
    if (q.kind) base = base.where("q.kind", "=", q.kind);
    if (q.storeId) base = base.where("q.store_id", "=", Number(q.storeId));
    const rows = await base
      .orderBy("q.id", "desc")
      .limit(q.pageSize + 1)
      .offset((q.page - 1) * q.pageSize)
      .execute();
    let count = this.deps.db
      .selectFrom("store_qr_codes")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("brander_id", "=", brander)
      .where("deleted_at", "is", null);
    if (q.kind) count = count.where("kind", "=", q.kind);
    if (q.storeId) count = count.where("store_id", "=", Number(q.storeId));
    const total = Number((await count.executeTakeFirst())?.n ?? 0);
    return {
      list: rows.slice(0, q.pageSize).map((r) => this.presentCode(r, origin)),
      total,
      page: q.page,
      pageSize: q.pageSize,
    };
  }

  async code(actor: Actor, id: number, origin: string): Promise<QrCode> {
    const r = await this.codesQuery(tenantOf(actor)).where("q.id", "=", id).executeTakeFirst();
    if (!r) throw new AppError(CODE.NOT_FOUND, "stores.codeNotFound");
    return this.presentCode(r, origin);
  }

  /** `qrCodes/bind`: the store's shop code (made once; binding again returns it). */
  async bindShopCode(actor: Actor, storeId: number, origin: string): Promise<QrCode> {
    const brander = tenantOf(actor);
    const s = await repo.findStore(this.deps.db, brander, storeId);
    if (!s) throw storeNotFound();
    const existing = await this.codesQuery(brander)
      .where("q.store_id", "=", storeId)
      .where("q.kind", "=", "shop")
      .executeTakeFirst();
    if (existing) return this.presentCode(existing, origin);
    try {
      await this.deps.db
        .insertInto("store_qr_codes")
        .values({
          brander_id: brander,
          store_id: storeId,
          kind: "shop",
          token: randomBytes(12).toString("base64url"),
          name: s.name,
        })
        .execute();
    } catch (err) {
      // Bound at the same moment by another request: its code is the store's.
      if (!isUniqueViolation(err)) throw err;
    }
    const r = await this.codesQuery(brander)
      .where("q.store_id", "=", storeId)
      .where("q.kind", "=", "shop")
      .executeTakeFirstOrThrow();
    return this.presentCode(r, origin);
  }

  /** `POST mallCodes`: a code opening the brand's mall, optionally attributed to a store. */
  async createMallCode(actor: Actor, req: { name: string; storeId: string | null }, origin: string): Promise<QrCode> {
    const brander = tenantOf(actor);
    if (req.storeId !== null && !(await repo.findStore(this.deps.db, brander, Number(req.storeId)))) {
      throw storeNotFound();
    }
    const row = await this.deps.db
      .insertInto("store_qr_codes")
      .values({
        brander_id: brander,
        store_id: req.storeId === null ? null : Number(req.storeId),
        kind: "mall",
        token: randomBytes(12).toString("base64url"),
        name: req.name,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return this.code(actor, row.id, origin);
  }

  async deleteMallCode(actor: Actor, id: number): Promise<{ deleted: true }> {
    const r = await this.deps.db
      .updateTable("store_qr_codes")
      .set({ deleted_at: this.now() })
      .where("id", "=", id)
      .where("brander_id", "=", tenantOf(actor))
      .where("kind", "=", "mall")
      .where("deleted_at", "is", null)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) throw new AppError(CODE.NOT_FOUND, "stores.codeNotFound");
    return { deleted: true };
  }

  /** What a scanned code opens (public): the store, or the brand's mall (its released storefront's app id, if any). */
  async landing(token: string): Promise<QrLanding> {
    const r = await this.deps.db
      .selectFrom("store_qr_codes as q")
      .leftJoin("stores as s", (j) => j.onRef("s.id", "=", "q.store_id").on("s.deleted_at", "is", null))
      .select([
        "q.kind",
        "q.name",
        "q.brander_id",
        "s.name as store_name",
        "s.province_code",
        "s.city_code",
        "s.county_code",
        "s.address",
        "s.opening_hours",
        "s.contact_phone",
        "s.state",
      ])
      .where("q.token", "=", token)
      .where("q.deleted_at", "is", null)
      .executeTakeFirst();
    if (!r) throw new AppError(CODE.NOT_FOUND, "stores.codeNotFound");
    const brand = await getMerchant(this.deps.db, r.brander_id);
    return {
      mallAppId: r.kind === "mall" ? await this.deps.releasedMall(r.brander_id) : null,
      kind: r.kind,
      name: r.name,
      branderId: String(r.brander_id),
      branderName: brand?.name ?? "",
      store:
        r.store_name !== null
          ? {
              name: r.store_name,
              region: regionText(r.province_code ?? "", r.city_code ?? "", r.county_code ?? ""),
              address: r.address ?? "",
              openingHours: r.opening_hours ?? "",
              contactPhone: r.contact_phone ?? "",
              state: r.state ?? "open",
            }
          : null,
    };
  }
}
