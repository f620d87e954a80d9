import {
  CODE,
  renderMessage,
  STORE_LIMITS,
  storeReq,
  type Lang,
  type MessageKey,
  type Page,
  type Store,
  type StoreBatchReply,
  type StoreQuery,
  type StoreReject,
  type StoreReq,
} from "@tessera/contracts";
import { isUniqueViolation, withTx, type Db, type Tx } from "../../db/tx";
import { audit } from "../../platform/audit";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import type { Clock } from "../../platform/clock";
import { AppError, conflict, invalid } from "../../platform/http/errors";
import { ClerksService } from "./clerks.service";
import { DistrictsService } from "./districts.service";
import { presentStore } from "./presenter";
import { QrCodesService } from "./qrcodes.service";
import { validRegion } from "../../platform/regions";
import * as repo from "./repo";
import { BadStoreFile, readStoreFile } from "./sheets";
import { pageWindow } from "../../db/paginate";

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
  /** Business districts (groups of the brand's stores). */
  readonly districts: DistrictsService;
  /** Clerks bound to the brand's stores. */
  readonly clerks: ClerksService;
  /** Shop and mall QR codes, and what a scan opens. */
  readonly codes: QrCodesService;

  constructor(private readonly deps: StoresDeps) {
    this.districts = new DistrictsService(deps);
    this.clerks = new ClerksService(deps);
    this.codes = new QrCodesService(deps);
  }

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
      pageWindow(q),
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
        const id = await repo.insertStore(tx, { brander_id: brander, ...this.values(req), updated_at: this.now() });
        await audit(tx, { actorUserId: actor.userId, action: "store.create", subjectType: "store", subjectId: id });
        return id;
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
        if (!(await repo.updateStore(tx, brander, id, { ...this.values(req), updated_at: this.now() }))) {
          throw storeNotFound();
        }
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
      await repo.retireStores(tx, ids, now);
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
        await repo.insertStores(
          tx,
          good.slice(i, i + 500).map((v) => ({ brander_id: brander, ...v, updated_at: now })),
        );
      }
      const importId = await repo.insertImport(tx, {
        brander_id: brander,
        file_name: source.fileName,
        imported: good.length,
        rejected: rejects.length,
        created_by: actor.userId,
      });
      for (let i = 0; i < rejects.length; i += 500) {
        await repo.insertImportRejects(
          tx,
          rejects.slice(i, i + 500).map((r) => ({ import_id: importId, row_no: r.row, reason: r.key, name: r.name })),
        );
      }
      await audit(tx, {
        actorUserId: actor.userId,
        action: "store.batch",
        subjectType: "store_import",
        subjectId: importId,
        detail: { imported: good.length, rejected: rejects.length },
      });
      return importId;
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
    const imp = await repo.findImport(this.deps.db, brander, importId);
    if (!imp) throw new AppError(CODE.NOT_FOUND, "error.notFound");
    return repo.importRejects(this.deps.db, importId);
  }

  /** One of the merchant's live stores, if it is one. */
  findStore(branderId: number, storeId: number) {
    return repo.findStore(this.deps.db, branderId, storeId);
  }
}
